import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { censys } from '../../../src/convert/censys/index.js'
import { detectFormat } from '../../../src/convert/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(censys, { dir: 'censys', ext: ['jsonl', 'json'], minCases: 4 })

const host = (services: object[], extra: object = {}) => ({ ip: '192.0.2.1', services, last_updated_at: '2024-05-01T00:00:00Z', ...extra })
const http = (headers: object) => ({ port: 80, service_name: 'HTTP', transport_protocol: 'TCP', http: { request: { uri: 'http://192.0.2.1/' }, response: { status_code: 200, status_reason: 'OK', headers } } })

describe('censys mapping', () => {
  it('restores dashes in header names, skips _encoding, keeps cookies apart', async () => {
    const headers = { Content_Type: ['text/html'], Set_Cookie: ['a=1', 'b=2'], _encoding: { Content_Type: 'DISPLAY_UTF8' } }
    const { events } = await convertText(censys, JSON.stringify(host([http(headers)])))
    expect(events[0]!.http.header).toEqual({ 'content-type': 'text/html', 'set-cookie': 'a=1\nb=2' })
    expect(events[0]!.summary.split('\n')[0]).toBe('HTTP/1.1 200 OK')
  })

  it('reads a bare host, the API answer around it, and an answer holding search hits alike', async () => {
    const h = host([http({})])
    const bare = await convertText(censys, JSON.stringify(h))
    const wrapped = await convertText(censys, JSON.stringify({ code: 200, status: 'OK', result: h }, null, 2))
    const page = await convertText(censys, JSON.stringify({ code: 200, status: 'OK', result: { hits: [h, h], total: 2 } }))
    expect(wrapped.events).toEqual(bare.events)
    expect(page.events).toEqual([...bare.events, ...bare.events])
  })

  it('takes the TLS leaf certificate fields', async () => {
    const tls = { version_selected: 'TLSv1_2', cipher_selected: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', certificates: { leaf_data: { names: ['a.example.com'], subject_dn: 'CN=a.example.com', issuer_dn: 'C=US, O=X, CN=X CA', fingerprint: 'AB'.repeat(32), pubkey_algorithm: 'RSA', pubkey_bit_size: 4096 } } }
    const { events } = await convertText(censys, JSON.stringify(host([{ port: 443, service_name: 'HTTP', extended_service_name: 'HTTPS', tls }], { dns: { names: ['a.example.com'] } })))
    expect(events[0]!.ssl).toMatchObject({ version: 'TLSv1.2', enabled: true, certificate: { cn: 'a.example.com', issuer_name: 'X CA', fingerprint: 'ab'.repeat(32), key_algo: 'RSA', key_size: 4096, domain: ['a.example.com'], valid: true } })
    expect(events[0]!.transport).toEqual(['tcp', 'tls', 'http'])
  })

  it('is recognised by auto: host, wrapped answer, search hits array', () => {
    const h = host([{ port: 22, service_name: 'SSH', transport_protocol: 'TCP' }])
    expect(detectFormat(JSON.stringify(h))?.name).toBe('censys')
    expect(detectFormat(JSON.stringify({ code: 200, status: 'OK', result: h }, null, 2))?.name).toBe('censys')
    expect(detectFormat(JSON.stringify([h, h], null, 4))?.name).toBe('censys')
  })
})

describe('censys property: hostport output is exactly the services ip:port pairs', () => {
  it('holds for generated hosts', async () => {
    const service = fc.record({ port, name: fc.constantFrom('HTTP', 'SSH', 'UNKNOWN', 'DNS') })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ ip, services: fc.array(service, { maxLength: 4 }) }), { minLength: 1, maxLength: 6 }), async (hosts) => {
        const text = JSON.stringify(hosts.map((h) => ({ ip: h.ip, services: h.services.map((s) => ({ port: s.port, service_name: s.name, transport_protocol: 'TCP' })) })), null, 2)
        const { events, problems } = await convertText(censys, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(hosts.flatMap((h) => h.services.map((s) => hostport(h.ip, s.port))))
      }),
      { numRuns: 100 },
    )
  })
})
