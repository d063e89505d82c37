import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { httpx } from '../../../src/convert/httpx/index.js'
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
