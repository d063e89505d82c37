import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { rustscan } from '../../../src/convert/rustscan/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(rustscan, { dir: 'rustscan', ext: 'txt' })

describe('rustscan mapping', () => {
  it('gives one tcp event per port of a line', async () => {
    const { events } = await convertText(rustscan, '192.0.2.1 -> [22,80,443]\n')
    expect(events.map((e) => [e.ip, e.port, e.transport])).toEqual([
      ['192.0.2.1', '22', ['tcp']],
      ['192.0.2.1', '80', ['tcp']],
      ['192.0.2.1', '443', ['tcp']],
    ])
  })
})

describe('rustscan property: hostport output is exactly the listed ip:port pairs', () => {
  it('holds for generated runs', async () => {
    const record = fc.record({ ip, ports: fc.array(port, { maxLength: 5 }) })
    await fc.assert(
      fc.asyncProperty(fc.array(record, { maxLength: 10 }), async (records) => {
        const { events, problems } = await convertText(rustscan, records.map((r) => `${r.ip} -> [${r.ports.join(',')}]\n`).join(''))
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(records.flatMap((r) => r.ports.map((p) => hostport(r.ip, p))))
      }),
      { numRuns: 100 },
    )
  })
})
