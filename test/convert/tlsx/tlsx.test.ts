import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { tlsx } from '../../../src/convert/tlsx/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(tlsx, { dir: 'tlsx', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('tlsx mapping', () => {
  it('fills ssl from the handshake and the certificate', async () => {
    const { events } = await convertText(
      tlsx,
      line({ host: 'a.example.com', ip: '192.0.2.1', port: '443', probe_status: true, tls_version: 'tls13', cipher: 'TLS_AES_128_GCM_SHA256', subject_cn: 'a.example.com', self_signed: true }),
    )
    expect(events[0]).toMatchObject({ ip: '192.0.2.1', host: 'a.example.com', port: '443', transport: ['tcp', 'tls'], protocol: 'tls', tags: ['self-signed'] })
    expect(events[0]!.ssl).toMatchObject({ enabled: true, version: 'TLSv1.3', cypher_suite: 'TLS_AES_128_GCM_SHA256', certificate: { cn: 'a.example.com', valid: true } })
  })
})

describe('tlsx property: hostport output is exactly the probed ip:port pairs', () => {
  it('holds for generated runs', async () => {
    const record = fc.record({ ip, port, ok: fc.boolean() })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const text = records.map((r) => line({ host: r.ip, ip: r.ip, port: String(r.port), probe_status: r.ok, tls_version: 'tls12' })).join('')
        const { events, problems } = await convertText(tlsx, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.filter((r) => r.ok).map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
