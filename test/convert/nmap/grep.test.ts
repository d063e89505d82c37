import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nmapGrep } from '../../../src/convert/nmap/index.js'
import { hostportOutput, isSkip } from '../../../src/convert/output/index.js'
import type { Event } from '../../../src/schema/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText } from '../../support/golden.js'

const pair = (ip: string, port: number | string) => (ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`)
const hostports = (events: Event[]) => events.map((e) => hostportOutput.format(e)).filter((t): t is string => !isSkip(t))
const HEADER = '# Nmap 7.94 scan initiated Sat Nov 21 18:13:20 2026 as: nmap -sV -oG - 192.0.2.0/24\n'

describe('nmap greppable: detection', () => {
  it('recognises host lines and the -oG header', () => {
    expect(nmapGrep.detect('Host: 192.0.2.1 ()\tStatus: Up\n')).toBe(true)
    expect(nmapGrep.detect(HEADER)).toBe(true)
    expect(nmapGrep.detect('# Nmap 7.94 scan initiated Sat Nov 21 18:13:20 2026 as: nmap -oN out.nmap x\nNmap scan report for x\n')).toBe(false)
    expect(nmapGrep.detect('192.0.2.1:80\n')).toBe(false)
  })
})

describe('nmap greppable: mapping', () => {
  it('every open port of a line; the header time (zone-less, read as UTC) for all', async () => {
    const line = 'Host: 192.0.2.1 (ptr.example)\tPorts: 22/open/tcp//ssh//OpenSSH 9.6 (protocol 2.0)/, 23/closed/tcp//telnet///, 443/open/tcp//ssl|http//nginx/\tIgnored State: closed (997)\n'
    const { events, problems } = await convertText(nmapGrep, HEADER + line)
    expect(problems).toEqual([])
    expect(hostports(events)).toEqual(['192.0.2.1:22', '192.0.2.1:443'])
    expect(events.map((e) => [e.reverse, e.time, e.protocol])).toEqual([
      ['ptr.example', '2026-11-21T18:13:20Z', 'ssh'],
      ['ptr.example', '2026-11-21T18:13:20Z', 'https'],
    ])
    expect(events[0]?.ssh.version).toBe(2)
    expect(events[1]?.transport).toEqual(['tcp', 'tls', 'http'])
    expect(events.every(isStrictValid)).toBe(true)
  })

  it("restores '/' that nmap wrote as '|', and keeps a version with commas whole", async () => {
    const line = 'Host: 192.0.2.1 ()\tPorts: 8443/open/tcp//ssl|http//Jetty (Powered by Jetty:|| 9.4, TLS|1.2)/, 9000/open/tcp//cslistener///\n'
    const { events } = await convertText(nmapGrep, HEADER + line)
    expect(events.map((e) => e.summary)).toEqual(['8443/tcp open ssl/http Jetty (Powered by Jetty:// 9.4, TLS/1.2)', '9000/tcp open cslistener'])
  })

  it('without a header, records take the run start', async () => {
    const { events } = await convertText(nmapGrep, 'Host: 192.0.2.1 ()\tPorts: 80/open/tcp//http///\n', { runStart: '2025-01-01T00:00:00Z' })
    expect(events[0]?.time).toBe('2025-01-01T00:00:00Z')
  })

  it('a cut-off port entry is reported; the complete entries before it are kept', async () => {
    const { events, problems } = await convertText(nmapGrep, 'Host: 192.0.2.1 ()\tPorts: 80/open/tcp//http///, 443/open/tc')
    expect(hostports(events)).toEqual(['192.0.2.1:80'])
    expect(problems.map((p) => p.where)).toEqual(['line 1'])
  })
})

// --- property: converting then writing hostport gives exactly the open ip:port pairs -----------

const arbEntry = fc.record({
  port: fc.integer({ min: 0, max: 65535 }),
  proto: fc.constantFrom('tcp', 'udp', 'sctp'),
  state: fc.constantFrom('open', 'open', 'closed', 'filtered', 'open|filtered'),
  service: fc.constantFrom('', 'ssh', 'http', 'ssl/http', 'http?', 'tcpwrapped'),
  // A version ending in ', ' and digits is left out: written before the entry's closing '/', it
  // reads as the start of a next entry ('…, 0/'), which this format cannot tell apart.
  version: fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 20 }).filter((v) => !/, \d+$/.test(v)),
    fc.constantFrom('a, b (c/d)', 'x, 5 y', 'OpenSSH 9.6p1 (protocol 2.0)'),
  ),
})
const arbLine = fc.record({
  ip: fc.oneof(fc.ipV4(), fc.ipV6()),
  name: fc.oneof(fc.constant(''), fc.domain()),
  status: fc.constantFrom('', 'Up', 'Down'),
  ports: fc.uniqueArray(arbEntry, { selector: (e) => `${e.proto}/${e.port}`, maxLength: 6 }),
})

/** A port entry as nmap writes it: `/` inside a field becomes `|`, tabs and newlines never occur. */
const entry = (e: { port: number; proto: string; state: string; service: string; version: string }) =>
  `${e.port}/${e.state}/${e.proto}//${e.service.replace(/\//g, '|')}//${e.version.replace(/[/]/g, '|').replace(/[\t\n\r]/g, ' ')}/`

describe('nmap greppable: property', () => {
  it('hostport of the events is exactly the open ip:port pairs, in order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbLine, { maxLength: 6 }), async (lines) => {
        const text = lines
          .flatMap((l) => {
            const head = `Host: ${l.ip} (${l.name})`
            const out = l.status === '' ? [] : [`${head}\tStatus: ${l.status}`]
            if (l.ports.length > 0) out.push(`${head}\tPorts: ${l.ports.map(entry).join(', ')}\tIgnored State: closed (99)`)
            return out
          })
          .join('\n')
        const { events, problems } = await convertText(nmapGrep, `${HEADER}${text}\n`)
        expect(problems).toEqual([])
        expect(hostports(events)).toEqual(lines.flatMap((l) => l.ports.filter((e) => e.state === 'open').map((e) => pair(l.ip, e.port))))
        expect(events.every(isStrictValid)).toBe(true)
      }),
      { numRuns: 150 },
    )
  })
})
