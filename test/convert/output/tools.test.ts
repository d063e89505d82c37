import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dnsx } from '../../../src/convert/dnsx/index.js'
import { masscanConsole } from '../../../src/convert/masscan/index.js'
import { nmapGrep } from '../../../src/convert/nmap/index.js'
import { dnsxOutput, humanFieldsOutput, isSkip, masscanConsoleOutput, nmapGrepOutput, type Output, parseFields, sxOutput, UnknownFieldError } from '../../../src/convert/output/index.js'
import { rustscan } from '../../../src/convert/rustscan/index.js'
import { sx } from '../../../src/convert/sx/index.js'
import type { Converter } from '../../../src/convert/types.js'
import { emptyEvent } from '../../../src/schema/empty.js'
import type { Event } from '../../../src/schema/index.js'
import { convertText } from '../../support/golden.js'
import { hostName, ipv4, ipv6, port } from '../../support/net-arbitraries.js'

const event = (patch: Partial<Event>): Event => Object.assign(emptyEvent(), { event_type: 'service', time: '2024-01-02T03:04:05Z' }, patch)

const write = (output: Output, events: readonly Event[]) =>
  events
    .map((e) => output.format(e))
    .filter((t): t is string => !isSkip(t))
    .map((t) => `${t}\n`)
    .join('')

describe("the filter tool's outputs", () => {
  it('write each tool’s own line', () => {
    const e = event({ ip: '192.0.2.1', host: 'a.example.com', port: '443', transport: ['tcp', 'tls', 'http'], protocol: 'https' })
    e.service.software.name = 'nginx'
    e.service.software.version = '1.24.0'
    expect(nmapGrepOutput.format(e)).toBe('Host: 192.0.2.1 (a.example.com)\tPorts: 443/open/tcp//ssl|http//nginx 1.24.0/')
    expect(masscanConsoleOutput.format(e)).toBe('Discovered open port 443/tcp on 192.0.2.1')
    expect(sxOutput.format(e)).toBe('{"scan":"tcpsyn","ip":"192.0.2.1","port":443}')
    expect(dnsxOutput.format(e)).toBe('{"host":"a.example.com","a":["192.0.2.1"],"timestamp":"2024-01-02T03:04:05Z"}')
    expect(sxOutput.format(event({ ip: '192.168.0.1', mac: 'aa:bb:cc:dd:ee:ff', vendor: 'Acme', transport: ['arp'] }))).toBe('{"scan":"arp","ip":"192.168.0.1","mac":"aa:bb:cc:dd:ee:ff","vendor":"Acme"}')
  })

  it('skip what a format cannot express', () => {
    const noPort = event({ ip: '192.0.2.1', host: 'a.example.com' })
    expect([nmapGrepOutput, masscanConsoleOutput, sxOutput].map((o) => o.format(noPort))).toEqual([{ skip: 'no port to write' }, { skip: 'no port to write' }, { skip: 'no port to write' }])
    expect(dnsxOutput.format(event({ ip: '192.0.2.1', port: '80' }))).toEqual({ skip: 'no host name to write' })
    expect(masscanConsoleOutput.format(event({ host: 'a.example.com', port: '80' }))).toEqual({ skip: 'no IP address to write' })
  })
})

describe('property: each output reads back with its --from as the same addresses and ports', () => {
  const pairs = fc.array(fc.record({ ip: fc.oneof(ipv4, ipv6), port, udp: fc.boolean() }), { maxLength: 10 })
  const key = (e: Event) => `${e.ip} ${e.port} ${e.transport.includes('udp') ? 'udp' : 'tcp'}`
  const cases: [Output, Converter][] = [
    [sxOutput, sx],
    [masscanConsoleOutput, masscanConsole],
    [nmapGrepOutput, nmapGrep],
  ]
  for (const [output, converter] of cases) {
    it(`${output.name} → --from ${converter.name}`, async () => {
      await fc.assert(
        fc.asyncProperty(pairs, async (list) => {
          const events = list.map((p) => event({ ip: p.ip, port: String(p.port), transport: [p.udp ? 'udp' : 'tcp'] }))
          const back = await convertText(converter, write(output, events))
          expect(back.problems).toEqual([])
          expect(back.events.map(key)).toEqual(events.map(key))
        }),
        { numRuns: 60 },
      )
    })
  }

  it('dnsx → --from dnsx gives back names and addresses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ host: hostName, ip: fc.oneof(ipv4, ipv6) }), { maxLength: 10 }), async (list) => {
        const events = list.map((p) => event({ host: p.host.toLowerCase(), ip: p.ip }))
        const back = await convertText(dnsx, write(dnsxOutput, events))
        expect(back.events.map((e) => [e.host, e.ip, e.time])).toEqual(events.map((e) => [e.host, e.ip, e.time]))
      }),
      { numRuns: 60 },
    )
  })

  it('RustScan lines become sx JSON lines, one per port', async () => {
    const { events } = await convertText(rustscan, '192.0.2.1 -> [22,80]\n')
    expect(write(sxOutput, events)).toBe('{"scan":"tcpsyn","ip":"192.0.2.1","port":22}\n{"scan":"tcpsyn","ip":"192.0.2.1","port":80}\n')
  })
})

describe('--fields', () => {
  it('accepts leaves, objects and one header; refuses anything else, listing the valid paths', () => {
    expect(parseFields(['ip', 'ssl.certificate', 'http.header.Server']).map((f) => f.path.join('.'))).toEqual(['ip', 'ssl.certificate', 'http.header.server'])
    expect(() => parseFields(['ip', 'nope'])).toThrow(UnknownFieldError)
    expect(() => parseFields(['nope'])).toThrow(/unknown field 'nope' \(fields: event_type, .*ssl\.certificate\.cn.*http\.header\.NAME/)
  })

  it('gives human a row per chosen field', () => {
    const e = event({ ip: '192.0.2.1', port: '80', summary: 'HTTP/1.1 200 OK\nserver: x' })
    e.http.header = { server: 'x' }
    expect(humanFieldsOutput(['ip', 'port', 'http.header.server', 'summary', 'host']).format(e)).toBe(
      'ip:                 192.0.2.1\nport:               80\nhttp.header.server: x\nsummary:            HTTP/1.1 200 OK\n                    server: x\nhost:\n',
    )
  })
})
