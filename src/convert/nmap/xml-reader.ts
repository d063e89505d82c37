/**
 * SAX handlers that fill one NmapHost at a time from nmap's `-oX` output and turn it into
 * events when `</host>` closes. Memory holds one host (open ports only), never the document.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { internalError } from '../../jsonl/index.js'
import type { Event } from '../../schema/index.js'
import type { ConvertContext, Problem } from '../types.js'
import { hostEvents } from './events.js'
import { emptyHost, emptyService, emptyTable, type NmapHost, type NmapPort, type NmapRun, type NmapScript, type ScriptTable } from './model.js'
import { readsTree } from './scripts.js'
import { ElementPath } from './xml-path.js'

type Item = Event | Problem

/** Thrown from the error handler to stop the parse at the first well-formedness error. */
class XmlError extends Error {}

export class NmapXmlReader {
  private out: Item[] = []
  private readonly parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true })
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
  private readonly onText = (text: string) => {
    this.text += text
  }

  constructor(private readonly ctx: ConvertContext) {
    this.parser.on('opentag', (tag) => this.open(tag))
    this.parser.on('closetag', (tag) => this.close(tag.name))
    // The text handler is set only while a value is captured (startCapture): without one,
    // saxes neither slices nor joins the text between elements, most of which is line ends.
    this.parser.on('cdata', (text) => {
      if (this.capture !== null) this.text += text
    })
    this.parser.on('error', (error) => {
      throw new XmlError(error.message)
    })
  }

  /** Feeds decoded text; false once the parse has stopped on an error. */
  write(text: string): boolean {
    if (this.stopped) return false
    try {
      this.parser.write(text)
    } catch (error) {
      this.stopped = true
      if (error instanceof XmlError) this.problem(this.path.toString(), `malformed XML: ${error.message}`)
      else {
        // A bug of ours: reported with its stack where it happened; what came before is kept.
        const issue = internalError(error)
        this.out.push({ kind: 'problem', where: this.path.toString(), line: this.parser.line, reason: issue.message, stack: issue.stack })
      }
    }
    return !this.stopped
  }

  /**
   * End of input. A host still open means the file was cut inside it: reported. A missing
   * `</nmaprun>` alone (an interrupted scan) loses nothing and is not a problem.
   */
  end(): void {
    if (this.stopped) return
    this.stopped = true
    if (this.host) {
      const where = this.path.toString()
      this.out.push({ kind: 'problem', where, line: this.host.line, reason: `input ends inside <${this.path.current}>: the host is truncated` })
      return
    }
    const errors: string[] = []
    this.parser.on('error', (error) => {
      errors.push(error.message)
    })
    this.parser.close()
    const cut = errors.find((message) => !/unclosed tag/.test(message))
    if (!this.sawRoot) this.problem('/', 'no <nmaprun> element: not nmap XML output')
    else if (cut !== undefined) this.problem(this.path.toString(), `input ends inside a tag (truncated?): ${cut}`)
  }

  /** Items produced since the last call. */
  drain(): Item[] {
    const items = this.out
    this.out = []
    return items
  }

  private problem(where: string, reason: string): void {
    this.out.push({ kind: 'problem', where, line: this.parser.line, reason })
  }

  private open(tag: SaxesTagPlain): void {
    const parent = this.path.current
    this.path.open(tag.name)
    const a = tag.attributes
    if (this.script) return this.openInScript(tag.name, a)
    const host = this.host
    switch (tag.name) {
      case 'nmaprun':
        if (parent === '') {
          this.sawRoot = true
          this.run.scanner = a.scanner ?? 'nmap'
          this.run.start = a.start ?? ''
        }
        return
      case 'host':
        if (parent === 'nmaprun') {
          this.host = emptyHost(this.path.toString(), this.parser.line)
          this.host.starttime = a.starttime ?? ''
          this.host.endtime = a.endtime ?? ''
        }
        return
    }
    if (!host) return
    switch (tag.name) {
      case 'status':
        if (parent === 'host') host.state = a.state ?? ''
        return
      case 'address':
        if (parent !== 'host') return
        if (a.addrtype === 'mac') {
          host.mac = a.addr ?? ''
          host.vendor = a.vendor ?? ''
        } else if (host.ip === '') host.ip = a.addr ?? ''
        return
      case 'hostname':
        if (parent === 'hostnames' && a.name) host.hostnames.push({ name: a.name, type: a.type ?? '' })
        return
      case 'port':
        if (parent === 'ports') {
          const where = this.path.toString()
          this.port = { protocol: a.protocol ?? '', portid: a.portid ?? '', state: '', service: undefined, scripts: [], where, line: this.parser.line }
        }
        return
      case 'state':
        if (parent === 'port' && this.port) this.port.state = a.state ?? ''
        return
      case 'service':
        if (parent === 'port' && this.port) this.port.service = serviceOf(a)
        return
      case 'cpe':
        if (parent === 'service' && this.port?.service) this.startCapture('cpe')
        return
      case 'script':
        if ((parent === 'port' && this.port) || parent === 'hostscript') {
          this.script = { id: a.id ?? '', output: a.output ?? '', root: emptyTable() }
          this.tables.push(this.script.root)
          // Host scripts and unknown scripts reach only the summary: their values are not read.
          this.keepElems = parent === 'port' && readsTree(this.script.id)
        }
        return
      case 'osmatch':
        if (parent === 'os' && !host.os) host.os = { name: a.name ?? '', accuracy: a.accuracy ?? '' }
        return
    }
  }

  private openInScript(name: string, a: Record<string, string>): void {
    const top = this.tables[this.tables.length - 1]!
    if (name === 'table') {
      const child = emptyTable(a.key ?? '')
      top.tables.push(child)
      this.tables.push(child)
    } else if (name === 'elem' && this.keepElems) this.startCapture(a.key ?? '')
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
    if (this.capture === null) this.parser.on('text', this.onText)
    this.capture = key
    this.text = ''
  }

  private stopCapture(): void {
    if (this.capture !== null) this.parser.off('text')
    this.capture = null
  }
}

function serviceOf(a: Record<string, string>) {
  const service = emptyService()
  service.name = a.name ?? ''
  service.product = a.product ?? ''
  service.version = a.version ?? ''
  service.extrainfo = a.extrainfo ?? ''
  service.ostype = a.ostype ?? ''
  service.tunnel = a.tunnel ?? ''
  service.method = a.method ?? ''
  service.banner = a.banner ?? ''
  return service
}
