import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dnsx } from '../../../src/convert/dnsx/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, ipv4, ipv6, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(dnsx, { dir: 'dnsx', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('dnsx mapping', () => {
  it('gives one service event per A and AAAA answer, CNAMEs in the summary', async () => {
    const { events } = await convertText(dnsx, line({ host: 'w.example.com', a: ['192.0.2.1'], aaaa: ['2001:db8::1'], cname: ['x.example.net'] }))
    expect(events.map((e) => [e.event_type, e.host, e.ip, e.port])).toEqual([
      ['service', 'w.example.com', '192.0.2.1', ''],
      ['service', 'w.example.com', '2001:db8::1', ''],
    ])
    expect(events[0]!.summary).toBe('w.example.com CNAME x.example.net\nw.example.com A 192.0.2.1')
  })
})

describe('dnsx property: the events are exactly the answers, and hostport writes none (dnsx has no ports)', () => {
  const record = fc.record({ host: hostName, a: fc.array(ipv4, { maxLength: 3 }), aaaa: fc.array(ipv6, { maxLength: 3 }) })
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const text = records.map((r) => line({ host: r.host, resolver: ['1.1.1.1:53'], a: r.a, aaaa: r.aaaa, status_code: 'NOERROR', timestamp: '2024-01-01T00:00:00Z' })).join('')
        const { events, problems } = await convertText(dnsx, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(events.map((e) => `${e.host} ${e.ip}`)).toEqual(records.flatMap((r) => [...r.a, ...r.aaaa].map((a) => `${r.host} ${a}`)))
        expect(writeHostports(events)).toEqual([])
      }),
      { numRuns: 100 },
    )
  })
})
