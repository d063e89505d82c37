import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { naabu } from '../../../src/convert/naabu/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(naabu, { dir: 'naabu', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('naabu mapping', () => {
  it('gives a minimal service event with transport from protocol and tls', async () => {
    const { events } = await convertText(naabu, line({ host: 'a.example.com', ip: '192.0.2.1', port: 443, protocol: 'tcp', tls: true, timestamp: '2024-01-01T00:00:00.000000001Z' }))
    expect(events[0]).toMatchObject({ event_type: 'service', ip: '192.0.2.1', host: 'a.example.com', port: '443', transport: ['tcp', 'tls'], time: '2024-01-01T00:00:00.000000001Z', ssl: { enabled: true } })
  })
})

describe('naabu property: hostport output is exactly the open ip:port pairs', () => {
  const record = fc.record({ ip, host: fc.option(hostName, { nil: undefined }), port, udp: fc.boolean(), tls: fc.boolean() })
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 15 }), async (records) => {
        const text = records
          .map((r) => line({ ...(r.host ? { host: r.host } : {}), ip: r.ip, timestamp: '2024-09-23T12:10:02.171375286Z', port: r.port, protocol: r.udp ? 'udp' : 'tcp', tls: r.tls }))
          .join('')
        const { events, problems } = await convertText(naabu, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
