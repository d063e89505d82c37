import { X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { detectFormat } from '../../../src/convert/index.js'
import { shodan } from '../../../src/convert/shodan/index.js'
import { sanDnsNames } from '../../../src/convert/shodan/san.js'
import { severityOf } from '../../../src/convert/shodan/vulns.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite, TOOLS_CORPUS } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(shodan, { dir: 'shodan', ext: ['jsonl', 'json'], minCases: 4 })

const line = (r: object) => `${JSON.stringify(r)}\n`
const banner = (extra: object = {}) => ({ ip_str: '192.0.2.1', port: 80, transport: 'tcp', timestamp: '2024-05-01T12:34:56.789012', data: '', _shodan: { module: 'http' }, ...extra })

describe('shodan mapping', () => {
  it('reads the zone-less microsecond timestamp as UTC', async () => {
    const { events } = await convertText(shodan, line(banner()))
    expect(events[0]!.time).toBe('2024-05-01T12:34:56.789012Z')
  })

  it('parses headers out of the raw data: status line, folded and repeated names, cookies apart', async () => {
    const data = 'HTTP/1.1 200 OK\r\nVary: A\r\nX-Folded: one\r\n two\r\nSet-Cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\nSet-Cookie: b=2\r\nVary: B\r\n\r\n'
    const { events } = await convertText(shodan, line(banner({ data, http: { status: 200 } })))
    expect(events[0]!.http.header).toEqual({ vary: 'A, B', 'x-folded': 'one two', 'set-cookie': 'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\nb=2' })
    expect(events[0]!.summary.split('\n')[0]).toBe('HTTP/1.1 200 OK')
  })

  it('keeps data that is not an HTTP response as the summary, with no headers', async () => {
    const { events } = await convertText(shodan, line(banner({ data: 'SSH-2.0-x\r\n', http: { status: 400 } })))
    expect(events[0]!.http.header).toEqual({})
    expect(events[0]!.summary).toBe('SSH-2.0-x')
  })

  it('turns asn "AS…" into a number and org into the organisation', async () => {
    const { events } = await convertText(shodan, line(banner({ asn: 'AS13335', org: 'Cloudflare, Inc.' })))
    expect(events[0]!.network).toEqual({ asn: 13335, organization_name: 'Cloudflare, Inc.', network: '' })
  })

  it('tags every CVE; only a verified one is also a leak, with its CVSS band', async () => {
    const vulns = { 'CVE-1': { verified: false, cvss: 9.8 }, 'CVE-2': { verified: true, cvss: 9.1, summary: 'bad' } }
    const { events } = await convertText(shodan, line(banner({ vulns })))
    expect(events.map((e) => e.event_type)).toEqual(['service', 'leak'])
    expect(events[0]!.tags).toEqual(['CVE-1', 'CVE-2'])
    expect(events[1]!.leak).toMatchObject({ stage: 'open', type: 'vulnerability', severity: 'critical' })
    expect(events[1]!.summary).toBe('CVE-2 (verified by Shodan, CVSS 9.1)\nbad')
    expect(events[1]!.event_fingerprint).not.toBe(events[0]!.event_fingerprint)
  })

  it('rates CVSS scores in the v3 bands', () => {
    expect([undefined, 0, 0.1, 3.9, 4, 6.9, 7, 8.9, 9, 10].map(severityOf)).toEqual(['info', 'info', 'low', 'low', 'medium', 'medium', 'high', 'high', 'critical', 'critical'])
  })

  it('an https module without ssl details has TLS when its answer is not plain HTTP (a TLS alert)', async () => {
    const { events } = await convertText(shodan, line(banner({ _shodan: { module: 'https-simple-new' }, http: {}, data: '\u0015\u0003\u0001\u0000\u0002\u0002\n' })))
    expect(events[0]!.transport).toEqual(['tcp', 'tls', 'http'])
    expect(events[0]!.protocol).toBe('https')
  })

  it('is recognised by auto from a banner, a host look-up and search results', () => {
    expect(detectFormat(line(banner()))?.name).toBe('shodan')
    expect(detectFormat(JSON.stringify({ ip_str: '192.0.2.1', ports: [80], hostnames: [], data: [banner()] }, null, 2))?.name).toBe('shodan')
    expect(detectFormat(line({ matches: [banner()], total: 1 }))?.name).toBe('shodan')
  })
})

describe('shodan certificate names', () => {
  const pem = (JSON.parse(readFileSync(join(TOOLS_CORPUS, 'shodan', 'typical.jsonl'), 'utf8').split('\n')[0]!) as { ssl: { chain: string[] } }).ssl.chain[0]!

  it('reads the SAN DNS names from the DER as node:crypto does', () => {
    const expected = new X509Certificate(pem).subjectAltName!.split(', ').map((n) => n.replace(/^DNS:/, ''))
    expect(sanDnsNames(pem)).toEqual(expected)
    expect(expected.length).toBe(3)
  })

  it('gives undefined for text that is not a certificate with names', () => {
    expect(sanDnsNames('not a certificate')).toBeUndefined()
    expect(sanDnsNames(Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x11, 0x04, 0x05]).toString('base64'))).toBeUndefined()
  })

  it('without ssl.cert, the chain alone fills the certificate', async () => {
    const { events } = await convertText(shodan, line(banner({ hostnames: ['example.com'], ssl: { chain: [pem] } })))
    expect(events[0]!.ssl.certificate).toMatchObject({ cn: 'www.example.com', domain: ['www.example.com', 'example.com', '*.cdn.example.com'], key_algo: 'RSA', key_size: 2048, fingerprint: '332a9b6fed17d98f14e42c2cfa91c8915853c99cf2510ddd03c042d343500fe8', valid: true })
  })
})

describe('shodan property: hostport output is exactly the banners ip:port pairs', () => {
  it('holds for generated banners, as JSON Lines or a host look-up', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ ip, port, tls: fc.boolean() }), { minLength: 1, maxLength: 10 }), fc.boolean(), async (banners, asHost) => {
        const records = banners.map((b) => ({ ...(b.ip.includes(':') ? { ipv6: b.ip } : { ip_str: b.ip }), port: b.port, timestamp: '2024-01-01T00:00:00.000000', data: '', ...(b.tls ? { ssl: {} } : {}) }))
        const text = asHost ? JSON.stringify({ ip_str: '192.0.2.250', ports: [], data: records }, null, 1) : records.map(line).join('')
        const { events, problems } = await convertText(shodan, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(banners.map((b) => hostport(b.ip, b.port)))
      }),
      { numRuns: 100 },
    )
  })
})
