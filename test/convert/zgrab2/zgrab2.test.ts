import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { zgrab2 } from '../../../src/convert/zgrab2/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(zgrab2, { dir: 'zgrab2', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`
const http = (headers: object, extra: object = {}) => ({
  status: 'success',
  protocol: 'http',
  result: { response: { status_line: '200 OK', status_code: 200, protocol: 'HTTP/1.1', headers, request: { url: { scheme: 'http', host: 'h.example.com', path: '/' } }, ...extra } },
  timestamp: '2024-01-01T01:00:00+01:00',
})

describe('zgrab2 mapping', () => {
  it('joins header arrays with ", ", set-cookie with newlines, and reads unknown headers', async () => {
    const headers = { vary: ['A', 'B'], set_cookie: ['a=1, x', 'b=2'], unknown: [{ key: 'x_odd', value: ['1', '2'] }] }
    const { events } = await convertText(zgrab2, line({ ip: '192.0.2.1', data: { http: http(headers) } }))
    expect(events[0]!.http.header).toEqual({ vary: 'A, B', 'set-cookie': 'a=1, x\nb=2', 'x-odd': '1, 2' })
    expect(events[0]!.summary.split('\n')).toContain('set-cookie: b=2')
  })

  it('reads protocol as an object (older) or a string (newer)', async () => {
    const a = await convertText(zgrab2, line({ ip: '192.0.2.1', data: { http: http({}, { protocol: { name: 'HTTP/1.0', major: 1, minor: 0 } }) } }))
    const b = await convertText(zgrab2, line({ ip: '192.0.2.1', data: { http: http({}, { protocol: 'HTTP/1.0' }) } }))
    expect(a.events[0]!.summary).toBe('HTTP/1.0 200 OK')
    expect(b.events[0]!.summary).toBe('HTTP/1.0 200 OK')
  })

  it('writes the SSH host key as SHA256:<base64>', async () => {
    const ssh = { status: 'success', protocol: 'ssh', result: { server_id: { raw: 'SSH-2.0-OpenSSH_9.6', version: '2.0', software: 'OpenSSH_9.6' }, key_exchange: { server_host_key: { fingerprint_sha256: '00'.repeat(32) } } } }
    const { events } = await convertText(zgrab2, line({ ip: '192.0.2.1', data: { ssh } }))
    expect(events[0]!.ssh).toEqual({ fingerprint: `SHA256:${'A'.repeat(43)}`, version: 2, banner: 'SSH-2.0-OpenSSH_9.6', motd: '' })
  })

  it('gives no event for a module that found nothing open', async () => {
    const { events, problems } = await convertText(zgrab2, line({ ip: '192.0.2.1', data: { http: { status: 'connection-refused', protocol: 'http', result: null } } }))
    expect(events).toEqual([])
    expect(problems).toEqual([])
  })
})

describe('zgrab2 property: hostport output is exactly the open ip:port pairs', () => {
  const record = fc.record({ ip, domain: fc.option(hostName, { nil: undefined }), port, open: fc.boolean(), module: fc.constantFrom('http', 'tls', 'ssh') })
  it('holds for generated runs (the port given by the request URL or a port member)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const text = records
          .map((r) => {
            if (!r.open) return line({ ip: r.ip, data: { [r.module]: { status: 'connection-refused', protocol: r.module, error: 'refused' } } })
            const authority = r.ip.includes(':') ? `[${r.ip}]` : r.ip
            const result =
              r.module === 'http'
                ? { response: { status_code: 200, protocol: 'HTTP/1.1', headers: {}, request: { url: { scheme: 'http', host: `${authority}:${r.port}`, path: '/' } } } }
                : r.module === 'tls'
                  ? { handshake_log: { server_hello: { version: { name: 'TLSv1.2' } } } }
                  : { server_id: { raw: 'SSH-2.0-x', version: '2.0', software: 'x' } }
            const portMember = r.module === 'http' ? {} : { port: r.port }
            return line({ ip: r.ip, ...(r.domain ? { domain: r.domain } : {}), data: { [r.module]: { status: 'success', protocol: r.module, ...portMember, result, timestamp: '2024-01-01T00:00:00Z' } } })
          })
          .join('')
        const { events, problems } = await convertText(zgrab2, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.filter((r) => r.open).map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
