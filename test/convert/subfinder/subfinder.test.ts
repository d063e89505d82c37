import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { subfinder } from '../../../src/convert/subfinder/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, ipv4, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(subfinder, { dir: 'subfinder', ext: 'jsonl' })

const line = (r: object) => `${JSON.stringify(r)}\n`

describe('subfinder mapping', () => {
  it('makes a dnsx-style event: service, host the subdomain, no port, sources as tags', async () => {
    const { events } = await convertText(subfinder, line({ host: 'api.example.com', input: 'example.com', sources: ['crtsh', 'chaos'], ip: '192.0.2.1' }))
    expect(events.map((e) => [e.event_type, e.host, e.ip, e.port, e.tags])).toEqual([['service', 'api.example.com', '192.0.2.1', '', ['source:crtsh', 'source:chaos']]])
    expect(events[0]!.summary).toBe('api.example.com subdomain of example.com\napi.example.com A 192.0.2.1')
  })

  it('gives the same fingerprint whichever source found the name', async () => {
    const { events } = await convertText(subfinder, line({ host: 'a.example.com', input: 'example.com', source: 'crtsh' }) + line({ host: 'a.example.com', input: 'example.com', source: 'chaos' }))
    expect(events[0]!.event_fingerprint).toBe(events[1]!.event_fingerprint)
  })
})

describe('subfinder property: one strict event per finding, and hostport writes none (no ports)', () => {
  it('holds for generated runs', async () => {
    const record = fc.record({ host: hostName, ip: fc.option(ipv4, { nil: undefined }) })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const text = records.map((r) => line({ host: r.host, input: 'example.com', source: 'crtsh', ...(r.ip ? { ip: r.ip } : {}) })).join('')
        const { events, problems } = await convertText(subfinder, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(events.map((e) => `${e.host} ${e.ip}`)).toEqual(records.map((r) => `${r.host.toLowerCase()} ${r.ip ?? ''}`))
        expect(writeHostports(events)).toEqual([])
      }),
      { numRuns: 100 },
    )
  })
})
