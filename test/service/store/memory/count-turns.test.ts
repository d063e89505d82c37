/**
 * A count whose facets are read from the events' JSON does those reads on the thread that
 * answers lookups (store/memory/count.ts): it must give the event loop a turn every READ_STEP
 * reads, not only every thousand candidates, so a lookup waits for a slice of the reads, not all.
 * Counted in turns of the loop (setImmediate callbacks run meanwhile), not in time.
 */
import { describe, expect, it } from 'vitest'
import { parseFacets } from '../../../../src/query/facets.js'
import { parseQuery } from '../../../../src/query/index.js'
import { MemoryStore } from '../../../../src/service/index.js'
import { READ_STEP } from '../../../../src/service/store/memory/count.js'
import { makeEvent } from '../../support.js'

describe('memory store count: JSON facet reads', () => {
  it('turns the event loop every READ_STEP reads, and stops at the signal', async () => {
    const store = new MemoryStore()
    const n = 2_000
    await store.ingest(Array.from({ length: n }, (_, i) => makeEvent({ ip: `10.0.${i >> 8}.${i & 255}`, port: '443', protocol: i % 2 ? 'https' : 'http', summary: `e${i}` })))
    let turns = 0
    let counting = true
    const tick = () => {
      turns++
      if (counting) setImmediate(tick)
    }
    setImmediate(tick)
    const result = await store.count(parseQuery('port:443', { scope: 'service' }), { facets: parseFacets('protocol', 'service') })
    counting = false
    expect(result.total).toBe(n)
    expect(result.facets[0]!.values.map((v) => v.count).sort()).toEqual([n / 2, n / 2])
    expect(turns).toBeGreaterThanOrEqual(Math.floor(n / READ_STEP) - 1)

    const stop = new AbortController()
    setImmediate(() => stop.abort(new Error('client gone')))
    await expect(store.count(parseQuery('port:443', { scope: 'service' }), { facets: parseFacets('protocol', 'service') }, { signal: stop.signal })).rejects.toThrow('client gone')
  })
})
