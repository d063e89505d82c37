/**
 * A large ingest prepares its documents on worker threads (issue 14): the outcome must be that
 * of the in-thread path, byte for byte — report, rejected lines, duplicates, stored events and
 * the order listeners hear them in.
 */
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/service/index.js'
import { PreparePool, prepareWorkerUrl } from '../../../src/service/ingest/prepare-pool.js'
import { makeEvent } from '../support.js'
import { expectSameOutcome, ingestWatched, mixedBody } from './mixed-body.js'

async function run(body: Buffer, ips: string[], workers: boolean) {
  const store = new MemoryStore()
  const { report, heard, prepared } = await ingestWatched(store, body, workers)
  const stored = ips.map((ip) => store.host(ip)).map((l) => [...l!.services, ...l!.leaks].map((b) => Buffer.from(b).toString('utf8')))
  return { report, heard, stored, size: store.size, stats: store.stats(), prepared }
}

describe('large ingest on worker threads', () => {
  it('finds the worker module from source', () => {
    expect(prepareWorkerUrl()).toBeDefined()
  })

  it('prepares on a worker exactly as on this thread', async () => {
    const pool = new PreparePool(prepareWorkerUrl()!, 1)
    try {
      const texts = [JSON.stringify(makeEvent({ ip: '192.0.2.1', event_fingerprint: 'a'.repeat(64) })), JSON.stringify({ ...makeEvent({ ip: '192.0.2.2' }), port: 22 }), '{', '[]']
      // Sent once as texts, once as UTF-8 bytes packed in one buffer of their own (it is moved).
      const joined = Buffer.from(texts.join(''))
      const bytes = Buffer.allocUnsafeSlow(joined.length)
      joined.copy(bytes)
      let end = 0
      const asBytes = texts.map((t) => (end += Buffer.byteLength(t)))
      const { JsonText, KEPT_AS_SENT, prepare } = await import('../../../src/service/store/index.js')
      const here = texts.map((t) => prepare(new JsonText(t)))
      expect(here.filter((r) => r.ok && r.json === texts[here.indexOf(r)])).toHaveLength(1) // one kept as it came
      // Every accepted document comes back as its canonical bytes (json KEPT_AS_SENT); refusals as they are.
      const expectLike = (fromWorker: typeof here) => {
        expect(fromWorker).toHaveLength(here.length)
        fromWorker.forEach((r, i) => {
          const expected = here[i]!
          if (!expected.ok || !r.ok) return expect(r).toEqual(expected)
          expect(r.json).toBe(KEPT_AS_SENT)
          expect(Buffer.from(r.utf8!).toString('utf8')).toBe(expected.json)
          const { json: _j, utf8: _u, owned: _o, event: _e, ...fields } = r
          const { json: _j2, utf8: _u2, owned: _o2, event: _e2, ...expectedFields } = expected
          expect(fields).toEqual(expectedFields)
        })
      }
      const fromTexts = await pool.prepare({ bytes: new Uint8Array(0), items: texts })
      expectLike(fromTexts)
      expect(fromTexts.some((r) => r.ok && r.owned)).toBe(false) // the worker's own bytes: copied by the store
      // Sent as bytes, the batch's buffer is moved to the worker and back: a document kept as
      // it came is a view of it, offered to the store to keep in place only when kept documents
      // fill most of the buffer.
      const fromBytes = await pool.prepare({ bytes, items: asBytes })
      expect(bytes.byteLength).toBe(0)
      expectLike(fromBytes)
      const kept = here.findIndex((r) => r.ok && r.json === texts[here.indexOf(r)])
      const r = fromBytes[kept]!
      if (!r.ok) throw new Error('unreachable')
      expect(r.utf8!.buffer.byteLength).toBe(joined.length)
      expect(r.owned === true).toBe(Buffer.byteLength(texts[kept]!) * 4 >= joined.length * 3)
    } finally {
      await pool.close()
    }
  })

  it('gives the same report, stored bytes and listener calls as the in-thread path', async () => {
    const { body, ips } = mixedBody()
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024)
    const inThread = await run(body, ips, false)
    const offloaded = await run(body, ips, true)
    expectSameOutcome(inThread, offloaded)
    // The same bytes; where they sit (slabs, waste) may differ: a worker's batch buffer can be kept as it is.
    expect(offloaded.stats.events).toBe(inThread.stats.events)
    expect(offloaded.stats.jsonBytes).toBe(inThread.stats.jsonBytes)
    expect(offloaded.stats.wastedBytes).toBeLessThanOrEqual(Math.max(inThread.stats.wastedBytes, offloaded.stats.jsonBytes / 3))
    // The mix did what it should: refusals on both sides of the first MiB, duplicates, lenient lines kept.
    const lines = inThread.report.rejected.map((r) => r.line)
    expect(lines[0]).toBeLessThan(100)
    expect(lines.at(-1)).toBeGreaterThan(5000)
    expect(inThread.report.duplicates).toBeGreaterThan(200)
    expect(inThread.heard.some((h) => h.summary === 'newer')).toBe(true)
  }, 60_000)
})
