/**
 * nmap's greppable output (`-oG`): one line per host, every port of the host on that line as
 * `port/state/protocol/owner/service/rpc/version/`, comma-separated, tab-separated fields.
 */
import type { Event } from '../../schema/index.js'
import { guarded, readLines } from '../../jsonl/index.js'
import { parseTime } from '../../time/index.js'
import type { ConvertContext, Converter, Problem } from '../types.js'
import { hostEvents } from './events.js'
import { emptyHost, emptyService, type NmapHost, type NmapPort, type NmapRun } from './model.js'

const HEADER = /^# Nmap \S+ scan initiated (.+?) as: (.*)$/
const HOST_FIELD = /^Host: (\S+) \((.*)\)$/
/** A port entry starts with digits and a slash; entries are joined with `, `. */
const ENTRY_SPLIT = /, (?=\d+\/)/

export const nmapGrep: Converter = {
  name: 'nmap-grep',
  tool: 'nmap',
  description: 'nmap greppable output (-oG): every port of every host line',
  detect: (head) => /^Host: \S+ \(.*\)\t(?:Status|Ports|Protocols): /m.test(head) || /^# Nmap \S+ scan initiated .* as: .*\s-o[GA]\s/m.test(head),
  convert: convertNmapGrep,
}

interface GrepRun extends NmapRun {
  /** The command line asked for version detection, so service names were probed. */
  probed: boolean
}

async function* convertNmapGrep(input: AsyncIterable<Uint8Array>, ctx: ConvertContext): AsyncGenerator<Event | Problem> {
  const run: GrepRun = { scanner: 'nmap', start: '', probed: false }
  for await (const item of readLines(input, { maxLineBytes: ctx.maxLineBytes })) {
    const where = `line ${item.line}`
    if ('error' in item) {
      yield { kind: 'problem', where, line: item.line, reason: item.error.message }
      continue
    }
    const text = item.text
    if (text.startsWith('#')) {
      readHeader(text, run)
      continue
    }
    if (!text.startsWith('Host: ')) {
      yield { kind: 'problem', where, line: item.line, reason: "not a line of nmap's greppable output" }
      continue
    }
    // A bug of ours on one line costs that line only (jsonl/guard.ts).
    yield* guarded(
      () => [...hostLine(text, item.line, run, ctx)],
      (issue): Problem[] => [{ kind: 'problem', where, line: item.line, reason: issue.message, stack: issue.stack }],
    )
  }
}

/** `# Nmap 7.94 scan initiated Mon Sep 23 10:00:00 2024 as: nmap -sV …` sets the run's start. */
function readHeader(text: string, run: GrepRun): void {
  const m = HEADER.exec(text)
  if (!m) return
  run.start = headerSeconds(m[1]!)
  run.probed = /\s(?:-sV|-A|--version-\w+)(?:\s|$)/.test(` ${m[2]!} `)
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * The header's time (`Mon Sep 23 10:00:00 2024`) has no zone: read as UTC, the project's rule
 * for zone-less times. Returned as Unix seconds text, as the XML's `start` is.
 */
function headerSeconds(text: string): string {
  const m = /^\w{3} (\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\d{4})$/.exec(text.trim())
  const month = m ? MONTHS.indexOf(m[1]!) + 1 : 0
  if (!m || month === 0) return ''
  const iso = `${m[4]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}T${m[3]}Z`
  const parsed = parseTime(iso)
  return parsed.ok ? String(parsed.value / 1_000_000_000n) : ''
}

function* hostLine(text: string, line: number, run: GrepRun, ctx: ConvertContext): Generator<Event | Problem> {
  const where = `line ${line}`
  const fields = text.split('\t')
  const hostField = HOST_FIELD.exec(fields[0]!)
  if (!hostField) {
    yield { kind: 'problem', where, line, reason: `malformed host field '${fields[0]}'` }
    return
  }
  const host: NmapHost = emptyHost(where, line)
  host.ip = hostField[1]!
  // The name in parentheses is nmap's reverse-DNS name of the address.
  if (hostField[2] !== '') host.hostnames.push({ name: hostField[2]!, type: 'PTR' })
  const ports = fields.find((f) => f.startsWith('Ports: '))
  if (ports === undefined) return // `Status: Up|Down` lines, `Protocols:` (-sO) lines: no port
  for (const entry of ports.slice('Ports: '.length).split(ENTRY_SPLIT)) {
    const port = portEntry(entry, where, line, run)
    if (port === undefined) yield { kind: 'problem', where, line, reason: `malformed port entry '${entry}' (truncated?)` }
    else if (port.state === 'open') host.ports.push(port)
  }
  yield* hostEvents(host, run, ctx)
}

/** `443/open/tcp//ssl|http//nginx 1.24.0/`: nmap writes `/` inside a field as `|`. */
function portEntry(entry: string, where: string, line: number, run: GrepRun): NmapPort | undefined {
  const parts = entry.split('/')
  if (parts.length !== 8 || parts[7] !== '' || !/^\d+$/.test(parts[0]!)) return undefined
  const [portid, state, protocol, , serviceField, , version] = parts as [string, string, string, string, string, string, string]
  let name = serviceField.replaceAll('|', '/').replace(/\?$/, '')
  const service = emptyService()
  if (name.startsWith('ssl/')) {
    service.tunnel = 'ssl'
    name = name.slice(4)
  }
  service.name = name
  service.fullversion = version.replaceAll('|', '/')
  service.method = run.probed || service.fullversion !== '' || service.tunnel !== '' ? 'probed' : 'table'
  return { protocol, portid, state, service: name === '' && service.tunnel === '' ? undefined : service, scripts: [], where, line }
}
