import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvFields } from '../../../src/convert/zmap/csv.js'
import { zmap } from '../../../src/convert/zmap/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { convertText, goldenSuite } from '../../support/golden.js'
import { hostport, ip, port, writeHostports } from '../../support/net-arbitraries.js'

goldenSuite(zmap, { dir: 'zmap', ext: ['csv', 'txt', 'jsonl'] })

describe('zmap mapping', () => {
  it('reads quoted values with commas, without inner escaping', () => {
    expect(csvFields('192.0.2.1,"a,b",80,"x"')).toEqual(['192.0.2.1', 'a,b', '80', 'x'])
  })

  it('converts timestamp_str offsets without a colon, and prefers ts + us', async () => {
    const { events } = await convertText(zmap, 'saddr,sport,timestamp_str\n192.0.2.1,80,2024-05-01T10:11:12.123+0200\n')
    expect(events[0]!.time).toBe('2024-05-01T08:11:12.123Z')
    const both = await convertText(zmap, 'saddr,sport,timestamp_str,timestamp_ts,timestamp_us\n192.0.2.1,80,2024-05-01T10:11:12.123+0200,1714551072,123456\n')
    expect(both.events[0]!.time).toBe('2024-05-01T08:11:12.123456Z')
  })

  it('keeps the header row of each input apart', async () => {
    const first = await convertText(zmap, 'sport,saddr\n80,192.0.2.1\n')
    const second = await convertText(zmap, '192.0.2.2,81\n')
    expect([first.events[0]!.ip, second.events[0]!.ip, second.events[0]!.port]).toEqual(['192.0.2.1', '192.0.2.2', '81'])
  })
})

describe('zmap property: saddr,sport rows give exactly those ip:port pairs, with or without a header', () => {
  it('holds for generated runs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ ip, port }), { maxLength: 12 }), fc.boolean(), async (rows, header) => {
        const text = `${header ? 'saddr,sport\n' : ''}${rows.map((r) => `${r.ip},${r.port}\n`).join('')}`
        const { events, problems } = await convertText(zmap, text)
        expect(problems).toEqual([])
        for (const e of events) expect(isStrictValid(e)).toBe(true)
        expect(writeHostports(events)).toEqual(rows.map((r) => hostport(r.ip, r.port)))
      }),
      { numRuns: 100 },
    )
  })
})
