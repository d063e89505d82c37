/**
 * A large bulk export's lines are made on the export thread (src/service/aggregate/export-thread.ts):
 * the same bytes as in this thread, resources split across batches included, and with the
 * buffers of batches and answers used again from one export to the next; an export stopped
 * early closes the store's read and leaves the thread usable; a thread that dies fails its
 * exports and is replaced.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { parseQuery } from '../../../src/query/index.js'
import { ExportThread, exportLines, sharedExportThread } from '../../../src/service/aggregate/export-thread.js'
import { resourceOf } from '../../../src/service/aggregate/index.js'
import { LineChunk } from '../../../src/service/aggregate/pieces.js'
import { MemoryStore, type SeenEvent } from '../../../src/service/index.js'
import { parseTime } from '../../../src/time/index.js'
import { makeEvent } from '../support.js'

const NOW = (() => {
  const t = parseTime('2026-01-01T00:00:00Z')
  if (!t.ok) throw new Error(t.reason)
  return t.value
})()

// 1 500 leaks on fewer resources (most with several events, so resources cross the 512-event batches).
const store = new MemoryStore()
const events = Array.from({ length: 1500 }, (_, i) =>
    makeEvent({
      event_type: 'leak',
      event_source: `plugin${i % 3}`,
      ip: i % 9 === 0 ? `2001:db8::${(i % 400).toString(16)}` : `192.0.${(i % 400) >> 8}.${i % 256}`,
      host: i % 4 === 0 ? '' : `h${i % 5}.example.com`,
      port: String(80 + (i % 4)),
      summary: `event ${i} é "quoted"`,
      time: `2025-0${1 + (i % 9)}-1${i % 10}T00:00:0${i % 10}.${i}Z`,
    }),
)
store.ingest(events)
const resources = new Set(events.map((e) => resourceOf(e).id)).size
const query = parseQuery('*', { scope: 'leak' })

/** The store's matches (`times` over), noting whether the read was closed before its end. */
function read(times = 1): { items: AsyncIterable<SeenEvent>; closed: () => boolean } {
  let closed = false
  const items = (async function* () {
    let done = false
    try {
      for (let t = 0; t < times; t++) yield* store.searchByResource(query)
      done = true
    } finally {
      if (!done) closed = true
    }
  })()
  return { items, closed: () => closed }
}

/** Every value of an export as text. */
async function text(values: AsyncIterable<unknown>): Promise<{ text: string; chunks: number }> {
  let out = ''
  let chunks = 0
  for await (const v of values) {
    if (v instanceof LineChunk) {
      chunks++
      out += Buffer.from(v.bytes).toString('utf8')
      // As the writer does once the chunk is sent: its buffer goes back to the worker, for later answers.
      v.written?.()
    } else out += (v as (Uint8Array | string)[]).map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join('') + '\n'
  }
  return { text: out, chunks }
}

const threads: ExportThread[] = []
afterAll(async () => {
  for (const t of threads) await t.thread.terminate()
})
const started = () => {
  const url = new URL('../../../src/service/aggregate/export-worker.ts', import.meta.url)
  const t = new ExportThread(url)
  threads.push(t)
  return t
}

describe('the export thread', () => {
  it('makes the lines this thread makes, byte for byte, resources across batches included', async () => {
    const inThread = await text(exportLines(read().items, NOW, () => undefined))
    const thread = started()
    const onThread = await text(exportLines(read().items, NOW, () => thread))
    expect(inThread.chunks).toBe(0)
    expect(onThread.chunks).toBeGreaterThan(1)
    expect(onThread.text).toBe(inThread.text)
    expect(inThread.text.split('\n').length - 1).toBe(resources)
    expect(resources).toBeLessThan(1000)
  })

  it('makes one line of a resource whose events span several batches', async () => {
    const big = new MemoryStore()
    await big.ingest(Array.from({ length: 1300 }, (_, i) => makeEvent({ event_type: 'leak', ip: '198.51.100.7', port: String(i), summary: `s${i}`, time: `2025-01-01T00:${String(i % 60).padStart(2, '0')}:00.${i}Z` })))
    const items = () => big.searchByResource(query)
    const thread = started()
    const onThread = await text(exportLines(items(), NOW, () => thread))
    expect(onThread.chunks).toBe(1)
    expect(onThread.text).toBe((await text(exportLines(items(), NOW, () => undefined))).text)
    expect((JSON.parse(onThread.text) as { events: unknown[] }).events).toHaveLength(1300)
  })

  it('stops with its reader: the store read is closed, the thread goes on with the next export', async () => {
    const thread = started()
    // Ten times the store: more than the batches the export reads ahead.
    const first = read(10)
    for await (const value of exportLines(first.items, NOW, () => thread)) {
      expect(value).toBeInstanceOf(LineChunk)
      break
    }
    expect(first.closed()).toBe(true)
    const again = await text(exportLines(read().items, NOW, () => thread))
    expect(again.text).toBe((await text(exportLines(read().items, NOW, () => undefined))).text)
  })

  it('fails the exports of a thread that died; the shared one is replaced', async () => {
    const thread = started()
    const export1 = exportLines(read().items, NOW, () => thread)
    await export1.next()
    await thread.thread.terminate()
    await expect(text(export1)).rejects.toThrow(/export worker/)
    expect(thread.failed).toBe(true)
    const shared = sharedExportThread()!
    threads.push(shared)
    await shared.thread.terminate()
    await expect.poll(() => shared.failed).toBe(true)
    const next = sharedExportThread()!
    threads.push(next)
    expect(next).not.toBe(shared)
    expect((await text(exportLines(read().items, NOW))).chunks).toBeGreaterThan(1)
  })
})
