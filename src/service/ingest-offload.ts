/**
 * The large-ingest path (issue 14): each document's JSON text is prepared (parsed, normalised,
 * validated, serialised: store/prepare.ts) on worker threads while the main thread goes on
 * reading lines and answering lookups; the main thread only stores the prepared results, in
 * input order and in short slices (Store.ingestPrepared). Accepting, refusing, duplicates and
 * listener calls are those of store.ingest() over the same documents, in the same order.
 */
import type { Issue } from '../validate/index.js'
import type { IngestReport } from './ingest.js'
import type { PreparePool } from './prepare-pool.js'
import { Slicer } from './slices.js'
import { JsonText, prepare, type PrepareResult, type Store } from './store/index.js'

/** Documents (or bytes of their text) sent to a worker at once. */
const BATCH_DOCS = 256
const BATCH_CHARS = 256 * 1024
/** Batches sent ahead of the one being stored: keeps the workers busy and memory bounded. */
const AHEAD = 4

type Batch = { lines: number[]; docs: unknown[]; texts: Promise<PrepareResult[] | null> }
type Segment = Batch | { line: number; error: Issue }

type PreparingStore = Store & Required<Pick<Store, 'ingestPrepared'>>

/** Feeds documents to the workers and stores their results, in order, into `report`. */
export class OffloadedIngest {
  private readonly segments: Segment[] = []
  private readonly slicer = new Slicer(16, 4096)
  private lines: number[] = []
  private docs: unknown[] = []
  private chars = 0

  constructor(
    private readonly store: PreparingStore,
    private readonly pool: PreparePool,
    private readonly report: IngestReport,
  ) {}

  /** Queues one document (a JsonText is prepared on a worker; any other value here, later). */
  async add(line: number, doc: unknown): Promise<void> {
    this.lines.push(line)
    this.docs.push(doc)
    if (doc instanceof JsonText) this.chars += doc.text.length
    if (this.docs.length >= BATCH_DOCS || this.chars >= BATCH_CHARS) await this.send()
  }

  /** A line refused before it became a document: reported after everything before it. */
  async error(line: number, error: Issue): Promise<void> {
    await this.send()
    this.segments.push({ line, error })
    await this.drain(AHEAD)
  }

  /** Stores everything still queued. */
  async finish(): Promise<void> {
    await this.send()
    await this.drain(0)
  }

  private async send(): Promise<void> {
    if (this.docs.length === 0) return
    const texts: string[] = []
    for (const doc of this.docs) if (doc instanceof JsonText) texts.push(doc.text)
    // A worker that fails leaves its batches to the main thread (null), as before issue 14.
    const prepared = texts.length === 0 ? Promise.resolve([]) : this.pool.prepare(texts).catch(() => null)
    this.segments.push({ lines: this.lines, docs: this.docs, texts: prepared })
    this.lines = []
    this.docs = []
    this.chars = 0
    await this.drain(AHEAD)
    await this.slicer.pause()
  }

  private async drain(keep: number): Promise<void> {
    while (this.segments.length > keep) {
      const segment = this.segments.shift()!
      if ('error' in segment) this.report.rejected.push({ line: segment.line, errors: [segment.error] })
      else await this.storeBatch(segment)
    }
  }

  /** Stores one batch's results in slices that leave the event loop to lookups in between. */
  private async storeBatch(batch: Batch): Promise<void> {
    const fromWorker = await batch.texts
    let next = 0
    for (let from = 0; from < batch.docs.length; ) {
      const started = performance.now()
      const to = Math.min(batch.docs.length, from + this.slicer.size)
      const items: PrepareResult[] = []
      for (let i = from; i < to; i++) {
        const doc = batch.docs[i]
        if (!(doc instanceof JsonText)) items.push(prepare(doc))
        else {
          const result = fromWorker === null ? prepare(doc) : fromWorker[next++]!
          // The input's own bytes of a text kept as it is (as prepare() on this thread does).
          if (result.ok && doc.utf8 !== undefined && result.json === doc.text) result.utf8 = doc.utf8
          items.push(result)
        }
      }
      const result = await this.store.ingestPrepared(items)
      this.slicer.measured(to - from, performance.now() - started)
      this.report.accepted += result.accepted
      this.report.duplicates += result.duplicates
      for (const r of result.rejected) this.report.rejected.push({ line: batch.lines[from + r.index]!, errors: r.errors })
      from = to
      await this.slicer.pause()
    }
  }
}
