/**
 * One property for every masscan format: results generated with fast-check, written the way
 * masscan writes that format, converted, then written as hostport, give exactly the input's
 * open ip:port pairs (one per status record, plus one per banner record), in order.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { masscanConsole, masscanJson, masscanList, masscanNdjson } from '../../../src/convert/masscan/index.js'
import { nmapXml } from '../../../src/convert/nmap/index.js'
import { hostportOutput, isSkip } from '../../../src/convert/output/index.js'
import type { Converter } from '../../../src/convert/types.js'
import type { Event } from '../../../src/schema/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText } from '../../support/golden.js'

const pair = (ip: string, port: number) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`)
const hostports = (events: Event[]) => events.map((e) => hostportOutput.format(e)).filter((t): t is string => !isSkip(t))

interface Result {
  ip: string
  port: number
  proto: string
  status: string
  timestamp: number
  banner?: { type: string; bytes: Uint8Array }
}

const arbResult: fc.Arbitrary<Result> = fc.record(
  {
    ip: fc.oneof(fc.ipV4(), fc.ipV6()),
    port: fc.integer({ min: 1, max: 65535 }),
    proto: fc.constantFrom('tcp', 'udp', 'sctp'),
    status: fc.constantFrom('open', 'open', 'closed'),
    timestamp: fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
    banner: fc.record({
      type: fc.constantFrom('http', 'http.server', 'title', 'ssh', 'ssl', 'X509', 'ftp', 'unknown'),
      bytes: fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.string({ maxLength: 40 }).map((s) => Buffer.from(s))),
    }),
  },
  { requiredKeys: ['ip', 'port', 'proto', 'status', 'timestamp'] },
)

/** masscan's escaping: printable ASCII except `<>&\"'` kept, every other byte written as `prefix` + 2 hex digits. */
function escape(bytes: Uint8Array, prefix: string): string {
  let out = ''
  for (const b of bytes) out += b >= 0x20 && b <= 0x7e && !'<>&\\"\''.includes(String.fromCharCode(b)) ? String.fromCharCode(b) : `${prefix}${b.toString(16).padStart(2, '0')}`
  return out
}

const isBanner = (r: Result) => r.banner !== undefined

function text(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return Buffer.from(bytes).toString('latin1')
  }
}

const writers: Record<string, (results: Result[]) => string> = {
  list: (results) =>
    `#masscan\n${results
      .map((r) => (isBanner(r) ? `banner ${r.proto} ${r.port} ${r.ip} ${r.timestamp} ${r.banner!.type} ${escape(r.banner!.bytes, '\\x')}` : `${r.status} ${r.proto} ${r.port} ${r.ip} ${r.timestamp}`))
      .join('\n')}\n# end\n`,
  json: (results) => {
    const records = results.map((r) =>
      isBanner(r)
        ? `{   "ip": "${r.ip}",   "timestamp": "${r.timestamp}", "ports": [ {"port": ${r.port}, "proto": "${r.proto}", "service": {"name": "${r.banner!.type}", "banner": "${escape(r.banner!.bytes, '\\u00')}"} } ] }`
        : `{   "ip": "${r.ip}",   "timestamp": "${r.timestamp}", "ports": [ {"port": ${r.port}, "proto": "${r.proto}", "status": "${r.status}", "reason": "syn-ack", "ttl": 64} ] }`,
    )
    return `[\n${records.join('\n,\n')}\n]\n`
  },
  ndjson: (results) =>
    results
      .map((r) =>
        isBanner(r)
          ? `{"ip":"${r.ip}","timestamp":"${r.timestamp}","port":${r.port},"proto":"${r.proto}","rec_type":"banner","data":{"service_name":"${r.banner!.type}","banner":"${escape(r.banner!.bytes, '\\u00')}"}}\n`
          : `{"ip":"${r.ip}","timestamp":"${r.timestamp}","port":${r.port},"proto":"${r.proto}","rec_type":"status","data":{"status":"${r.status}","reason":"syn-ack","ttl":64}}\n`,
      )
      .join(''),
  console: (results) =>
    results
      .map((r) => (isBanner(r) ? `Banner on port ${r.port}/${r.proto} on ${r.ip}: [${r.banner!.type}] ${escape(r.banner!.bytes, '\\x')}` : `Discovered ${r.status} port ${r.port}/${r.proto} on ${r.ip}`))
      .map((line) => `${line.padEnd(79)}\n`)
      .join(''),
  xml: (results) =>
    `<?xml version="1.0"?>\n<!-- masscan v1.0 scan -->\n<nmaprun scanner="masscan" start="1700000000" version="1.0-BETA"  xmloutputversion="1.03">\n${results
      .map(
        (r) =>
          `<host endtime="${r.timestamp}"><address addr="${r.ip}" addrtype="${r.ip.includes(':') ? 'ipv6' : 'ipv4'}"/><ports><port protocol="${r.proto}" portid="${r.port}"><state state="${isBanner(r) ? 'open' : r.status}" reason="syn-ack" reason_ttl="64"/>${isBanner(r) ? `<service name="${r.banner!.type}" banner="${escape(r.banner!.bytes, '\\x')}"></service>` : ''}</port></ports></host>\r\n`,
      )
      .join('')}</nmaprun>\n`,
}

const converters: Record<string, Converter> = { list: masscanList, json: masscanJson, ndjson: masscanNdjson, console: masscanConsole, xml: nmapXml }

describe('masscan: property (hostport of the events = the open ip:port pairs)', () => {
  for (const [format, write] of Object.entries(writers)) {
    it(format, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(arbResult, { maxLength: 8 }), async (results) => {
          const { events, problems } = await convertText(converters[format]!, write(results))
          expect(problems).toEqual([])
          const open = results.filter((r) => isBanner(r) || r.status === 'open')
          expect(hostports(events)).toEqual(open.map((r) => pair(r.ip, r.port)))
          expect(events.every((e) => e.event_source === 'masscan' && isStrictValid(e))).toBe(true)
          if (format === 'console') return // no times; banner padding is trimmed
          expect(events.map((e) => e.time)).toEqual(open.map((r) => new Date(r.timestamp * 1000).toISOString().replace('.000Z', 'Z')))
          // Banner bytes come back exactly: as UTF-8 text when they are UTF-8, else one character per byte.
          const banners = open.flatMap((r, i) => (r.banner ? [[events[i]!.summary, text(r.banner.bytes)]] : []))
          for (const [got, want] of banners) expect(got).toBe(want)
        }),
        { numRuns: 100 },
      )
    })
  }
})
