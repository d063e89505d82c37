/**
 * masscan's console lines: `Discovered open port 80/tcp on 192.0.2.1` (padded with spaces to
 * cover the progress line; ARP results add `(MAC) vendor`) and, with `--banners`,
 * `Banner on port 80/tcp on 192.0.2.1: [title] Welcome`. No per-line time: records take the
 * time of `Starting masscan … at 2024-09-24 04:18:39 GMT` when the capture has it.
 */
import { canonicalTime } from '../../time/index.js'
import type { Converter } from '../types.js'
import { convertLines, type LineResult, type LineState, unescapeBanner } from './lines.js'
import type { MasscanRecord } from './record.js'

const DISCOVERED = /^Discovered (\w+) port (\d+)\/(\w+) on (\S+)(?: \(([0-9A-Fa-f:]{17})\)(?: (.*?))?)? *$/
const BANNER = /^Banner on port (\d+)\/(\w+) on (\S+): \[([^\]]*)\] ?(.*?) *$/
const STARTING = /^Starting masscan .* at (\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) GMT/
/** What else masscan prints while it runs; not records. */
const CHATTER = /^(?:Initiating |Scanning \d|rate: |waiting |\[[-+!*]\]|\[hint\]|FAIL|WARNING|warning:|Starting masscan)/

export const masscanConsole: Converter = {
  name: 'masscan-console',
  tool: 'masscan',
  description: "masscan console lines ('Discovered open port …', 'Banner on port …')",
  detect: (head) => /(?:^|\r)(?:Discovered \w+ port \d+\/\w+ on |Banner on port \d+\/\w+ on |Starting masscan )/m.test(head),
  convert: (input, ctx) => convertLines(input, ctx, parseConsoleLine),
}

function parseConsoleLine(text: string, state: LineState): LineResult {
  const out: NonNullable<LineResult> = []
  // The progress line ends in a carriage return and is overwritten: one line, several segments.
  for (const raw of text.split('\r')) {
    const segment = raw.trim()
    if (segment === '') continue
    const record = consoleRecord(segment)
    if (record) {
      out.push(record)
      continue
    }
    const start = STARTING.exec(segment)
    if (start) {
      const time = canonicalTime(`${start[1]}T${start[2]}Z`)
      if (time.ok) state.runStart = time.value
    } else if (!CHATTER.test(segment)) out.push({ problem: 'not a masscan console line' })
  }
  return out
}

function consoleRecord(segment: string): MasscanRecord | undefined {
  const found = DISCOVERED.exec(segment)
  if (found) {
    const [, status, port, proto, ip, mac, vendor] = found
    const record: MasscanRecord = { ip: ip!, port: port!, proto: proto!, status: status!, timestamp: undefined }
    if (mac !== undefined) {
      record.mac = mac.toLowerCase()
      record.vendor = vendor ?? ''
    }
    return record
  }
  const banner = BANNER.exec(segment)
  if (banner) {
    const [, port, proto, ip, service, text] = banner
    return { ip: ip!, port: port!, proto: proto!, status: 'banner', timestamp: undefined, service: service!, banner: unescapeBanner(text!) }
  }
  return undefined
}
