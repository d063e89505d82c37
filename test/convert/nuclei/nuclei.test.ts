import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nuclei } from '../../../src/convert/nuclei/index.js'
import { leakType } from '../../../src/convert/nuclei/leak-type.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostName, hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(nuclei, { dir: 'nuclei', ext: ['jsonl', 'json'], minCases: 4 })

const line = (r: object) => `${JSON.stringify(r)}\n`
const finding = (extra: object) => ({ 'template-id': 't', info: { name: 'T', severity: 'high' }, ip: '192.0.2.1', ...extra })

describe('nuclei mapping', () => {
  it('reads host as a URL (older output) and as a host name (v3)', async () => {
    const old = await convertText(nuclei, line(finding({ host: 'https://a.example.com', 'matched-at': 'https://a.example.com/x' })))
    const v3 = await convertText(nuclei, line(finding({ host: 'a.example.com', port: '443', scheme: 'https', 'matched-at': 'https://a.example.com:443/x' })))
    for (const { events } of [old, v3]) {
      expect(events[0]).toMatchObject({ host: 'a.example.com', ip: '192.0.2.1', port: '443', transport: ['tcp', 'tls', 'http'], http: { url: '/x' } })
    }
  })

  it('makes a leak event: stage open, template severity, unknown → info with a tag', async () => {
    const { events } = await convertText(nuclei, line(finding({ info: { name: 'N', severity: 'unknown', tags: ['a'] }, host: 'h.example.com', port: '80' })))
    expect(events[0]).toMatchObject({ event_type: 'leak', leak: { stage: 'open', severity: 'info' }, tags: ['t', 'a', 'severity:unknown'] })
    expect(events[0]!.summary.split('\n')[0]).toBe('[t] N (unknown)')
  })

  it('derives the leak type from the CWE, then the tags', () => {
    expect(leakType(['cwe-89'], ['xss'])).toBe('sqli')
    expect(leakType([], ['panel', 'exposure'])).toBe('exposure')
    expect(leakType([], ['unlisted'])).toBe('vulnerability')
  })

  it('reads -json-export arrays', async () => {
    const { events } = await convertText(nuclei, JSON.stringify([finding({ host: 'a.example.com', port: '1' }), finding({ host: 'b.example.com', port: '2' })], null, 2))
    expect(events.map((e) => e.host)).toEqual(['a.example.com', 'b.example.com'])
  })
})

describe('nuclei property: hostport output is exactly the ip:port pairs of the findings', () => {
  const record = fc.record({ ip, name: fc.option(hostName, { nil: undefined }), port, type: fc.constantFrom('http', 'network', 'ssl'), v3: fc.boolean() })
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const text = records
          .map((r) => {
            const authority = r.name ?? (r.ip.includes(':') ? `[${r.ip}]` : r.ip)
            const matched = r.type === 'http' ? `https://${authority}:${r.port}/login` : `${authority}:${r.port}`
            const where = r.v3 ? { host: r.name ?? r.ip, port: String(r.port) } : { host: r.type === 'http' ? `https://${authority}:${r.port}` : matched }
            return line({ 'template-id': 'x', info: { name: 'X', severity: 'low', tags: ['t'] }, type: r.type, ...where, 'matched-at': matched, ip: r.ip, timestamp: '2024-01-01T00:00:00.5+01:00' })
          })
          .join('')
        const { events, problems } = await convertText(nuclei, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
