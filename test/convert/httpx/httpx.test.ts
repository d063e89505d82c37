import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isUnconvertible, mappedItems } from '../../../src/convert/common/records.js'
import { CONVERTER_NAME } from '../../../src/convert/finish.js'
import { httpxDraftCanonical } from '../../../src/convert/httpx/canonical.js'
import { httpx } from '../../../src/convert/httpx/index.js'
import { mapHttpx } from '../../../src/convert/httpx/map.js'
import { isCanonical, resolveOptions } from '../../../src/normalize/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(httpx, { dir: 'httpx', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('httpx version drift', () => {
  it('reads the IP from host (≤ v1.7.2) and from host_ip (≥ v1.7.3)', async () => {
    const old = await convertText(httpx, line({ host: '192.0.2.1', url: 'https://a.example.com', port: '443', status_code: 200 }))
    const now = await convertText(httpx, line({ host: 'a.example.com', host_ip: '192.0.2.1', url: 'https://a.example.com', port: '443', status_code: 200 }))
    for (const { events } of [old, now]) expect(events[0]).toMatchObject({ ip: '192.0.2.1', host: 'a.example.com', port: '443' })
  })

  it('takes jarm_hash, else jarm', async () => {
    const a = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '443', scheme: 'https', jarm: 'aa' }))
    const b = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '443', scheme: 'https', jarm_hash: 'bb' }))
    expect(a.events[0]!.ssl.jarm).toBe('aa')
    expect(b.events[0]!.ssl.jarm).toBe('bb')
  })

  it('restores dashes in header names and parses the old raw header string', async () => {
    const map = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '80', header: { content_type: 'text/html', x_frame_options: 'DENY' } }))
    expect(map.events[0]!.http.header).toEqual({ 'content-type': 'text/html', 'x-frame-options': 'DENY' })
    const raw = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '80', header: 'HTTP/1.1 200 OK\r\nVary: A\r\nVary: B\r\nSet-Cookie: a=1, 2\r\nSet-Cookie: b=2\r\n\r\n' }))
    expect(raw.events[0]!.http.header).toEqual({ vary: 'A, B', 'set-cookie': 'a=1, 2\nb=2' })
    expect(raw.events[0]!.summary.split('\n')[0]).toBe('HTTP/1.1 200 OK')
  })

  it('converts a non-UTC offset with nanoseconds exactly', async () => {
    const { events } = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '80', timestamp: '2024-12-31T19:59:59.999999999-05:00' }))
    expect(events[0]!.time).toBe('2025-01-01T00:59:59.999999999Z')
  })

  it('maps tls12 to TLSv1.2 and tech to modules', async () => {
    const { events } = await convertText(httpx, line({ host_ip: '192.0.2.1', port: '443', webserver: 'nginx/1.24.0', tech: ['Nginx:1.24.0', 'HSTS'], tls: { tls_version: 'tls12' } }))
    expect(events[0]!.ssl.version).toBe('TLSv1.2')
    expect(events[0]!.service.software).toMatchObject({ name: 'nginx', version: '1.24.0', modules: [{ name: 'Nginx', version: '1.24.0' }, { name: 'HSTS', version: '' }] })
  })
})

describe('httpx property: hostport output is exactly the open ip:port pairs', () => {
  const record = fc.record({
    ip,
    name: fc.option(hostName, { nil: undefined }),
    port,
    https: fc.boolean(),
    failed: fc.boolean(),
    newer: fc.boolean(),
    status: fc.integer({ min: 100, max: 599 }),
  })
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 12 }), async (records) => {
        const text = records
          .map((r) => {
            const scheme = r.https ? 'https' : 'http'
            const authority = r.name ?? (r.ip.includes(':') ? `[${r.ip}]` : r.ip)
            if (r.failed) return line({ url: `${scheme}://${authority}:${r.port}`, input: authority, failed: true, error: 'timeout' })
            const where = r.newer ? { host: r.name ?? r.ip, host_ip: r.ip } : { host: r.ip }
            return line({ timestamp: '2024-05-06T07:08:09.123+02:00', ...where, port: String(r.port), url: `${scheme}://${authority}:${r.port}`, scheme, status_code: r.status, failed: false })
          })
          .join('')
        const { events, problems } = await convertText(httpx, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.filter((r) => !r.failed).map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})

describe('httpx drafts vouched canonical (finishEvent skips their strict check)', () => {
  const KEEP = resolveOptions({ fingerprint: 'keep' })
  const loose = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -5, max: 5_000_000_000_000 }), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }))
  const time = fc.oneof(
    fc.constantFrom('2024-05-06T07:08:09.123+02:00', '9999-12-31T23:30:00-02:00', '0000-01-01T00:30:00+01:00', '2024-02-30T00:00:00Z', '2024-05-06 07:08:09', '0001-01-01T00:00:00Z', '', '1715000000', '1e20'),
    fc.integer({ min: -1, max: 400_000_000_000 }),
    loose,
  )
  const record = fc.record(
    {
      timestamp: time,
      host: fc.oneof(fc.constantFrom('a.example.com', '192.0.2.1', '2001:db8::1', ' A.Example.COM. '), loose),
      host_ip: fc.oneof(fc.constantFrom('192.0.2.7', '[2001:db8::7]', 'x'), loose),
      a: fc.oneof(fc.array(fc.constantFrom('192.0.2.9', 'nope', ''), { maxLength: 2 }), loose),
      port: fc.oneof(fc.constantFrom('443', '0', '65536', ' 80 ', '080'), loose),
      url: fc.oneof(fc.constantFrom('https://a.example.com:8443/x?y', 'http://[2001:db8::2]/', 'http://xn--a.example/', 'ftp://h/', 'bad'), loose),
      scheme: fc.oneof(fc.constantFrom('https', 'HTTP'), loose),
      path: loose,
      status_code: fc.oneof(fc.integer({ min: 0, max: 2000 }), fc.constantFrom('200', ' 301 ', '1000'), loose),
      content_length: fc.oneof(fc.integer({ min: 0, max: 2 ** 60 }), loose),
      title: loose,
      webserver: fc.oneof(fc.constantFrom('nginx/1.2 (Ubuntu)', '  '), loose),
      tech: fc.oneof(fc.array(fc.constantFrom('Nginx:1.24.0', 'HSTS', '', 'A:b'), { maxLength: 3 }), loose),
      header: fc.oneof(fc.dictionary(fc.constantFrom('content_type', 'set_cookie', 'Server', '0', '__proto__', ''), fc.oneof(fc.string({ maxLength: 4 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.integer())), loose),
      raw_header: fc.constantFrom('HTTP/1.1 200 OK\r\nVary: A\r\nVary: B\r\n\r\n', ''),
      jarm_hash: loose,
      asn: fc.oneof(fc.record({ as_number: fc.constantFrom('AS13335', 'as4294967296', '', 'AS1'), as_name: loose, as_range: loose }), loose),
      cdn: fc.boolean(),
      cdn_name: loose,
      tls: fc.oneof(
        fc.record(
          {
            tls_version: fc.constantFrom('tls12', 'TLSv1_3', 'weird'),
            cipher: loose,
            subject_cn: loose,
            subject_an: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 3 }), loose),
            issuer_dn: fc.constantFrom('CN=R3, O=X', ''),
            fingerprint_hash: fc.oneof(fc.record({ sha256: fc.constantFrom('AB'.repeat(32), 'ab'.repeat(32), 'zz') }), loose),
            not_before: time,
            not_after: time,
            mismatched: fc.oneof(fc.boolean(), loose),
          },
          { requiredKeys: [] },
        ),
        loose,
      ),
    },
    { requiredKeys: [] },
  )
  it('are canonical as built whenever httpxDraftCanonical says so', () => {
    fc.assert(
      fc.property(record, fc.constantFrom('2024-01-01T00:00:00Z', '2024-01-01T00:00:00.500Z', '2024-01-01T02:00:00+02:00', 'not a time'), (r, runStart) => {
        const ctx = { runStart, fingerprint: 1 as const, maxLineBytes: 1 << 20 }
        let mapped
        try {
          mapped = mapHttpx(JSON.parse(JSON.stringify(r)) as Record<string, unknown>, ctx)
        } catch {
          return // a throw is reported as a problem by the driver; nothing vouched for
        }
        const [draft, ...more] = mappedItems(mapped)
        if (draft === undefined || more.length > 0 || isUnconvertible(draft)) return
        const vouched = httpxDraftCanonical(draft, ctx)
        draft.event_source = 'httpx'
        draft.event_pipeline = ['httpx', CONVERTER_NAME]
        if (vouched) expect(isCanonical(draft, KEEP)).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })
})
