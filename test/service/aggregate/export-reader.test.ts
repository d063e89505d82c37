/**
 * The bulk export reads the store in batches (src/service/aggregate/export-reader.ts): a store
 * whose answer can be read a batch at a time (BatchedIterable) gives the same batches, events
 * and order as one read event by event, whatever the sizes of the store's own batches; an early
 * close ends the store's read. The memory store's searchByResource gives the same events both ways.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseQuery } from '../../../src/query/index.js'
import { BATCH_BYTES, BATCH_EVENTS, type Batch, eventReader } from '../../../src/service/aggregate/export-reader.js'
import { type BatchedIterable, MemoryStore, type SeenEvent } from '../../../src/service/index.js'
import { makeEvent } from '../support.js'

/** An event whose stored bytes are `size` long (only `json` is read). */
const eventOf = (n: number, size: number): SeenEvent => ({ json: new Uint8Array(size).fill(n % 251), firstSeen: `${n}`, lastSeen: `${n}` })

/** The events as the store's batches of the given sizes, closing noted. */
function batched(groups: SeenEvent[][]): { items: BatchedIterable<SeenEvent>; closed: () => boolean } {
  let closed = false
  return {
    closed: () => closed,
    items: {
      batches: async function* () {
        let done = false
        try {
          for (const g of groups) yield g
          done = true
        } finally {
          if (!done) closed = true
        }
      },
      async *[Symbol.asyncIterator]() {
        for (const g of groups) yield* g
      },
    },
  }
}

/** The same events, event by event only. */
async function* single(groups: SeenEvent[][]): AsyncGenerator<SeenEvent> {
  for (const g of groups) yield* g
}

async function readAll(items: AsyncIterable<SeenEvent>): Promise<Batch[]> {
  const reader = eventReader(items)
  const out: Batch[] = []
  for (;;) {
    const batch = await reader.read()
    out.push(batch)
    if (batch.final) return out
  }
}

const shape = (batches: Batch[]) => batches.map((b) => ({ final: b.final, firstSeen: b.events.map((e) => e.firstSeen) }))

describe('export reader', () => {
  it('reads a batched store into the same batches as one read event by event', async () => {
    await fc.assert(
      fc.asyncProperty(
        // The store's batches: sizes from empty to over a whole export batch; events from tiny to a quarter of BATCH_BYTES.
        fc.array(fc.array(fc.oneof(fc.constant(10), fc.integer({ min: 1, max: 4000 }), fc.constant(BATCH_BYTES >> 2)), { maxLength: 700 }), { maxLength: 6 }),
        async (sizes) => {
          let n = 0
          const groups = sizes.map((g) => g.map((size) => eventOf(n++, size)))
          const fromBatches = await readAll(batched(groups).items)
          const fromEvents = await readAll(single(groups))
          expect(shape(fromBatches)).toEqual(shape(fromEvents))
          expect(fromBatches.flatMap((b) => b.events)).toEqual(groups.flat())
          expect(fromBatches.filter((b) => b.final)).toHaveLength(1)
          for (const b of fromBatches.slice(0, -1)) {
            const bytes = b.events.reduce((sum, e) => sum + e.json.length, 0)
            expect(b.events.length === BATCH_EVENTS || bytes >= BATCH_BYTES).toBe(true) // full by one bound or the other
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it("ends the store's batched read when closed early", async () => {
    const groups = [Array.from({ length: 300 }, (_, i) => eventOf(i, 10)), Array.from({ length: 300 }, (_, i) => eventOf(300 + i, 10)), [eventOf(600, 10)]]
    const { items, closed } = batched(groups)
    const reader = eventReader(items)
    const first = await reader.read()
    expect(first.final).toBe(false)
    expect(first.events).toHaveLength(BATCH_EVENTS)
    expect(closed()).toBe(false)
    await reader.close()
    expect(closed()).toBe(true)
  })

  it("gives the memory store's events in the same order whether read by batch or by event", async () => {
    const store = new MemoryStore()
    store.ingest(Array.from({ length: 250 }, (_, i) => makeEvent({ event_type: 'leak', ip: `192.0.2.${i % 40}`, port: String(80 + (i % 3)), summary: `e${i}` })))
    const query = parseQuery('*', { scope: 'leak' })
    const byEvent: string[] = []
    for await (const e of store.searchByResource(query, { batch: 7 })) byEvent.push(Buffer.from(e.json).toString('utf8'))
    const byBatch: string[] = []
    const sizes: number[] = []
    for await (const b of store.searchByResource(query, { batch: 7 }).batches()) {
      sizes.push(b.length)
      for (const e of b) byBatch.push(Buffer.from(e.json).toString('utf8'))
    }
    expect(byEvent).toHaveLength(250)
    expect(byBatch).toEqual(byEvent)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(7)
  })
})
