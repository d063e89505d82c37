/**
 * Handlers of the XML scanner that fill one NmapHost at a time from nmap's `-oX` output and
 * turn it into events when `</host>` closes. Memory holds one host (open ports only), never
 * the document.
 */
import { internalError } from '../../jsonl/index.js'
import type { Event } from '../../schema/index.js'
import type { ConvertContext, Problem } from '../types.js'
import { hostEvents } from './events.js'
import { emptyHost, emptyService, emptyTable, type NmapHost, type NmapPort, type NmapRun, type NmapScript, type ScriptTable } from './model.js'
import { readsTree } from './scripts.js'
import type { XmlAttributes } from './xml-attributes.js'
import { ElementPath } from './xml-path.js'
import { XmlScanner, XmlSyntaxError } from './xml-scanner.js'

type Item = Event | Problem

export class NmapXmlReader {
  private out: Item[] = []
  private readonly scanner: XmlScanner
  private readonly path = new ElementPath()
  private readonly run: NmapRun = { scanner: 'nmap', start: '' }
  private sawRoot = false
  private stopped = false
  private host: NmapHost | undefined
  private port: NmapPort | undefined
  private script: NmapScript | undefined
  /** Whether the open script's `<elem>` values are used (scripts.ts readsTree). */
  private keepElems = false
  private readonly tables: ScriptTable[] = []
  /** Key of the `<elem>` being read, or null; `cpe` when reading a service's `<cpe>`. */
  private capture: string | null = null
  private text = ''

  constructor(private readonly ctx: ConvertContext) {
    // Text reaches `text` only while a value is captured (startCapture sets `capturing`).
    this.scanner = new XmlScanner({
      open: (name, attributes) => this.open(name, attributes),
      close: (name) => this.close(name),
      text: (text) => {
        this.text += text
      },
    })
  }

  /** Feeds decoded text; false once the parse has stopped on an error. */
  write(text: string): boolean {
    if (this.stopped) return false
    try {
      this.scanner.write(text)
    } catch (error) {
      this.fail(error)
    }
    return !this.stopped
  }

  private fail(error: unknown): void {
    this.stopped = true
    if (error instanceof XmlSyntaxError) this.problem(this.path.toString(), `malformed XML: ${error.message}`, error.line)
    else {
      // A bug of ours: reported with its stack where it happened; what came before is kept.
      const issue = internalError(error)
      this.out.push({ kind: 'problem', where: this.path.toString(), line: this.scanner.line, reason: issue.message, stack: issue.stack })
    }
  }

  /**
   * End of input. A host still open means the file was cut inside it: reported. A missing
   * `</nmaprun>` alone (an interrupted scan) loses nothing and is not a problem.
   */
  end(): void {
    if (this.stopped) return
    try {
      this.scanner.flush()
    } catch (error) {
      return this.fail(error)
    }
    this.stopped = true
    if (this.host) {
      const where = this.path.toString()
      this.out.push({ kind: 'problem', where, line: this.host.line, reason: `input ends inside <${this.path.current}>: the host is truncated` })
      return
    }
    const cut = this.scanner.end().find((message) => !/unclosed tag/.test(message))
    const line = this.scanner.endLine
    if (!this.sawRoot) this.problem('/', 'no <nmaprun> element: not nmap XML output', line)
    else if (cut !== undefined) this.problem(this.path.toString(), `input ends inside a tag (truncated?): ${cut}`, line)
  }

  /** Items produced since the last call. */
  drain(): Item[] {
    const items = this.out
    this.out = []
    return items
  }

  private problem(where: string, reason: string, line: number): void {
    this.out.push({ kind: 'problem', where, line, reason })
  }

  private open(name: string, a: XmlAttributes): void {
    const parent = this.path.current
    this.path.open(name)
    if (this.script) return this.openInScript(name, a)
    const host = this.host
    switch (name) {
      case 'nmaprun':
        if (parent === '') {
          this.sawRoot = true
          this.run.scanner = a.get('scanner') ?? 'nmap'
          this.run.start = a.get('start') ?? ''
        }
        return
      case 'host':
        if (parent === 'nmaprun') {
          this.host = emptyHost(this.path.toString(), this.scanner.line)
          this.host.starttime = a.get('starttime') ?? ''
          this.host.endtime = a.get('endtime') ?? ''
        }
        return
    }
    if (!host) return
    switch (name) {
      case 'status':
        if (parent === 'host') host.state = a.get('state') ?? ''
        return
      case 'address':
        if (parent !== 'host') return
        if (a.get('addrtype') === 'mac') {
          host.mac = a.get('addr') ?? ''
          host.vendor = a.get('vendor') ?? ''
        } else if (host.ip === '') host.ip = a.get('addr') ?? ''
        return
      case 'hostname':
        if (parent === 'hostnames') {
          const hostname = a.get('name')
          if (hostname) host.hostnames.push({ name: hostname, type: a.get('type') ?? '' })
        }
        return
      case 'port':
        if (parent === 'ports') {
          const where = this.path.toString()
          this.port = { protocol: a.get('protocol') ?? '', portid: a.get('portid') ?? '', state: '', service: undefined, scripts: [], where, line: this.scanner.line }
        }
        return
      case 'state':
        if (parent === 'port' && this.port) this.port.state = a.get('state') ?? ''
        return
      case 'service':
        if (parent === 'port' && this.port) this.port.service = serviceOf(a)
        return
      case 'cpe':
        if (parent === 'service' && this.port?.service) this.startCapture('cpe')
        return
      case 'script':
        if ((parent === 'port' && this.port) || parent === 'hostscript') {
          this.script = { id: a.get('id') ?? '', output: a.get('output') ?? '', root: emptyTable() }
          this.tables.push(this.script.root)
          // Host scripts and unknown scripts reach only the summary: their values are not read.
          this.keepElems = parent === 'port' && readsTree(this.script.id)
        }
        return
      case 'osmatch':
        if (parent === 'os' && !host.os) host.os = { name: a.get('name') ?? '', accuracy: a.get('accuracy') ?? '' }
        return
    }
  }

  private openInScript(name: string, a: XmlAttributes): void {
    const top = this.tables[this.tables.length - 1]!
    if (name === 'table') {
      const child = emptyTable(a.get('key') ?? '')
      top.tables.push(child)
      this.tables.push(child)
    } else if (name === 'elem' && this.keepElems) this.startCapture(a.get('key') ?? '')
  }

  private close(name: string): void {
    const parent = this.path.ancestor(1)
    this.path.close()
    if (this.script) return this.closeInScript(name, parent)
    switch (name) {
      case 'cpe':
        if (this.capture === 'cpe' && this.port?.service) this.port.service.cpes.push(this.text.trim())
        this.stopCapture()
        return
      case 'port':
        if (this.port && parent === 'ports') {
          if (this.port.state === 'open') this.host?.ports.push(this.port)
          this.port = undefined
        }
        return
      case 'host':
        if (this.host && parent === 'nmaprun') {
          for (const item of hostEvents(this.host, this.run, this.ctx)) this.out.push(item)
          this.host = undefined
        }
        return
    }
  }

  private closeInScript(name: string, parent: string): void {
    const top = this.tables[this.tables.length - 1]!
    if (name === 'elem') {
      if (this.capture !== null) top.elems.push({ key: this.capture, value: this.text })
      this.stopCapture()
    } else if (name === 'table') this.tables.pop()
    else if (name === 'script' && this.tables.length === 1) {
      const script = this.script!
      if (parent === 'hostscript') this.host?.hostScripts.push(script)
      else this.port?.scripts.push(script)
      this.script = undefined
      this.tables.length = 0
    }
  }

  private startCapture(key: string): void {
    this.scanner.capturing = true
    this.capture = key
    this.text = ''
  }

  private stopCapture(): void {
    this.scanner.capturing = false
    this.capture = null
  }
}

function serviceOf(a: XmlAttributes) {
  const service = emptyService()
  service.name = a.get('name') ?? ''
  service.product = a.get('product') ?? ''
  service.version = a.get('version') ?? ''
  service.extrainfo = a.get('extrainfo') ?? ''
  service.ostype = a.get('ostype') ?? ''
  service.tunnel = a.get('tunnel') ?? ''
  service.method = a.get('method') ?? ''
  service.banner = a.get('banner') ?? ''
  return service
}
