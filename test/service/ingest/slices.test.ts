/** A large ingest gives the event loop turns (issue 14): other work runs while it is going on. */
import { describe, expect, it } from 'vitest'
import { ingestText, MemoryStore } from '../../../src/service/index.js'
import { makeEvent } from '../support.js'

describe('ingest in slices', () => {
  it('lets timers and I/O run between slices of a large ingest, and still stores every event', async () => {
    // Lenient documents (port as a number, time with an offset): the normalising, slower path.
    const docs = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ ...makeEvent({ ip: `198.18.${i >> 8}.${i & 255}`, summary: 'x'.repeat(500) }), port: 80, time: '2024-01-01T00:00:00+02:00' }))
    const store = new MemoryStore()
    let turns = 0
    let done = false
    const tick = () => {
      if (done) return
      turns++
      setImmediate(tick)
    }
    setImmediate(tick)
    const report = await ingestText(store, docs.join('\n'))
    done = true
    expect(report).toMatchObject({ accepted: 4000, rejected: [] })
    // One turn per slice: without slicing the whole ingest is one turn.
    expect(turns).toBeGreaterThan(10)
  })
})
