/**
 * A large ingest prepares its documents on prepare workers (issue 14), child processes or
 * threads (issue 21): the outcome must be that of the in-thread path, byte for byte — report,
 * rejected lines, duplicates, stored events and the order listeners hear them in.
 */
import { describe, expect, it } from 'vitest'
import { MemoryStore, parseConfig } from '../../../src/service/index.js'
import { PreparePool, prepareWorkerUrl } from '../../../src/service/ingest/prepare-pool.js'
import { DEFAULT_WORKER_KIND, type PrepareWorkerKind } from '../../../src/service/ingest/worker-priority.js'
import { makeEvent } from '../support.js'
import { expectSameOutcome, ingestWatched, mixedBody } from './mixed-body.js'

async function run(body: Buffer, ips: string[], workers: boolean | PrepareWorkerKind) {
  const store = new MemoryStore()
  const { report, heard, prepared } = await ingestWatched(store, body, workers)
  const stored = ips.map((ip) => store.host(ip)).map((l) => [...l!.services, ...l!.leaks].map((b) => Buffer.from(b).toString('utf8')))
  return { report, heard, stored, size: store.size, stats: store.stats(), prepared }
}

const KINDS: PrepareWorkerKind[] = ['process', 'thread']

describe('large ingest on prepare workers', () => {
  it('finds the worker module from source; runs workers as threads by default, and the service as processes', () => {
    expect(prepareWorkerUrl()).toBeDefined()
    expect(DEFAULT_WORKER_KIND).toBe('thread')
    expect(parseConfig('{}', 'config.json').ingestWorkers).toBe('process')
  })

  it.each(KINDS)('prepares on a worker (%s) exactly as on this thread', async (kind) => {
    const pool = new PreparePool(prepareWorkerUrl()!, 1, 0, kind) // (at the normal priority: the idle class waits without end on a busy machine)
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
      // Sent as bytes, the batch's buffer is moved to a worker thread and back (a process is
      // sent a copy, and this one keeps it): a document kept as it came is a view of it,
      // offered to the store to keep in place only when kept documents fill most of the buffer.
      const buffer = bytes.buffer
      const fromBytes = await pool.prepare({ bytes, items: asBytes })
      expect(bytes.byteLength).toBe(kind === 'thread' ? 0 : joined.length)
      expectLike(fromBytes)
      const kept = here.findIndex((r) => r.ok && r.json === texts[here.indexOf(r)])
      const r = fromBytes[kept]!
      if (!r.ok) throw new Error('unreachable')
      expect(r.utf8!.buffer.byteLength).toBe(joined.length)
      if (kind === 'process') expect(r.utf8!.buffer).toBe(buffer)
      expect(r.owned === true).toBe(Buffer.byteLength(texts[kept]!) * 4 >= joined.length * 3)
    } finally {
      await pool.close()
    }
  })

  it.each(KINDS)("offers the worker's (%s) written bytes to the store to keep, once there are enough of them for a slab", async (kind) => {
    const pool = new PreparePool(prepareWorkerUrl()!, 1, 0, kind) // (at the normal priority: the idle class waits without end on a busy machine)
    try {
      // Lenient documents (a numeric port): each is normalised, so the worker writes its bytes.
      const texts = Array.from({ length: 40 }, (_, i) => JSON.stringify({ ...makeEvent({ ip: `192.0.2.${i}`, summary: 'x'.repeat(2000) }), port: 22 }))
      const results = await pool.prepare({ bytes: new Uint8Array(0), items: texts })
      const buffers = new Set(results.map((r) => (r.ok ? r.utf8!.buffer : undefined)))
      expect(buffers.size).toBe(1) // one buffer, the worker's written bytes
      const written = [...buffers][0]!
      expect(written.byteLength).toBeGreaterThanOrEqual(64 * 1024)
      expect(results.every((r) => r.ok && r.owned === true)).toBe(true)
      // The store keeps that buffer as a slab of its own: no copy, and nothing in it is waste.
      // (From a process, the bytes arrive as a view of the answer's whole message: they are
      // copied once into a buffer of their own, so the rest of the message is not kept.)
      const store = new MemoryStore()
      expect(store.ingestPrepared(results)).toMatchObject({ accepted: 40, duplicates: 0, rejected: [] })
      const jsonBytes = results.reduce((n, r) => n + (r.ok ? r.utf8!.length : 0), 0)
      expect(store.stats()).toEqual({ events: 40, jsonBytes, slabBytes: written.byteLength, wastedBytes: written.byteLength - jsonBytes })
      expect(jsonBytes).toBe(written.byteLength)
      // A few documents' bytes stay below a slab's worth: copied, not kept.
      const few = await pool.prepare({ bytes: new Uint8Array(0), items: texts.slice(0, 3) })
      expect(few.some((r) => r.ok && r.owned)).toBe(false)
    } finally {
      await pool.close()
    }
  })

  it("prepares a failed worker's batches on this thread, with the same outcome", async () => {
    const { JsonText } = await import('../../../src/service/store/index.js')
    const { OffloadedIngest } = await import('../../../src/service/ingest/offload.js')
    const failing = { prepare: () => Promise.reject(new Error('worker gone')) } as unknown as PreparePool
    const canonical = (i: number) => JSON.stringify(makeEvent({ ip: `192.0.2.${i}`, event_fingerprint: String(i % 10).repeat(64), summary: 'y'.repeat(3000) }))
    // Bytes (most of a body), a text without bytes, a lenient document, a refusal, and a value that is not JSON text.
    const texts = Array.from({ length: 300 }, (_, i) => canonical(i))
    const lenient = JSON.stringify({ ...makeEvent({ ip: '192.0.2.200' }), port: 8443 })
    const value = makeEvent({ ip: '192.0.2.201' })
    const docs = (): unknown[] => [
      ...texts.map((t) => JsonText.ofBytes(Buffer.from(t))),
      new JsonText(texts[7]!),
      JsonText.ofBytes(Buffer.from(lenient)),
      JsonText.ofBytes(Buffer.from('{"ip": 1')),
      structuredClone(value),
    ]
    const here = new MemoryStore()
    const expected = here.ingest(docs())
    const store = new MemoryStore()
    const report = { accepted: 0, duplicates: 0, rejected: [] as { line: number; errors: unknown[] }[] }
    const offloaded = new OffloadedIngest(store as MemoryStore & Required<Pick<MemoryStore, 'ingestPrepared'>>, failing, report as never)
    for (const [i, doc] of docs().entries()) await offloaded.add(i, doc)
    await offloaded.finish()
    expect(report).toEqual({ accepted: expected.accepted, duplicates: expected.duplicates, rejected: expected.rejected.map((r) => ({ line: r.index, errors: r.errors })) })
    expect(expected).toMatchObject({ accepted: 302, duplicates: 1, rejected: [{ index: 302 }] }) // (the text sent without bytes repeats event 7)
    for (const ip of ['192.0.2.7', '192.0.2.200', '192.0.2.201']) expect(store.host(ip)).toEqual(here.host(ip))
  })

  it.each(KINDS)('gives the same report, stored bytes and listener calls as the in-thread path (%s)', async (kind) => {
    const { body, ips } = mixedBody()
    expect(body.length).toBeGreaterThan(2 * 1024 * 1024)
    const inThread = await run(body, ips, false)
    const offloaded = await run(body, ips, kind)
    expectSameOutcome(inThread, offloaded)
    // The same bytes; where they sit (slabs, waste) may differ: a worker's batch buffer can be kept as it is.
    expect(offloaded.stats.events).toBe(inThread.stats.events)
    expect(offloaded.stats.jsonBytes).toBe(inThread.stats.jsonBytes)
    // Offloading adds waste only where the store keeps a batch's buffer as it came: that needs
    // documents kept as sent to fill 3/4 of it, so the rest is at most a third of them, and
    // such documents are under a tenth of this body (most lines are rewritten). The bound holds
    // however the body is cut into batches; keeping the whole of a process's answer would not.
    expect(offloaded.stats.wastedBytes).toBeLessThanOrEqual(inThread.stats.wastedBytes + offloaded.stats.jsonBytes / 10)
    // The mix did what it should: refusals on both sides of the first MiB, duplicates, lenient lines kept.
    const lines = inThread.report.rejected.map((r) => r.line)
    expect(lines[0]).toBeLessThan(100)
    expect(lines.at(-1)).toBeGreaterThan(5000)
    expect(inThread.report.duplicates).toBeGreaterThan(200)
    expect(inThread.heard.some((h) => h.summary === 'newer')).toBe(true)
  }, 180_000)
})
