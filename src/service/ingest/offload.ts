/**
 * The large-ingest path (issue 14): each document's JSON text is prepared (parsed, normalised,
 * validated, serialised: store/prepare.ts) by prepare workers (child processes or threads)
 * while the main thread goes on reading lines and answering lookups; the main thread only
 * stores the prepared results, in input order and in short slices (Store.ingestPrepared).
 * Accepting, refusing, duplicates and listener calls are those of store.ingest() over the same
 * documents, in the same order.
 */
import type { Issue } from '../../validate/index.js'
import type { IngestReport } from './feed.js'
import type { PreparePool } from './prepare-pool.js'
import { Slicer } from './slices.js'
import { type IngestResult, JsonText, KEPT_AS_SENT, prepare, type PrepareResult, type Store } from '../store/index.js'

/** Documents (or bytes of their text) sent to a worker at once. */
const BATCH_DOCS = 256
const BATCH_CHARS = 256 * 1024
/** Documents an async store (PostgreSQL) is given at once, as feed.ts gives its ingest(). */
const HELD_DOCS = 1024
/** Batches sent ahead of the one being stored: keeps the workers busy and memory bounded. */
const AHEAD = 4

/** `texts`: the workers' results for the batch's JsonTexts, or null when this thread prepares them (a worker failed). */
type Batch = { lines: number[]; docs: unknown[]; texts: Promise<PrepareResult[] | null> }
type Segment = Batch | { line: number; error: Issue }

type PreparingStore = Store & Required<Pick<Store, 'ingestPrepared'>>

/** Feeds documents to the workers and stores their results, in order, into `report`. */
export class OffloadedIngest {
  private readonly segments: Segment[] = []
  private readonly slicer = new Slicer(8, 4096)
  private lines: number[] = []
  private docs: unknown[] = []
  private chars = 0
  /** For an async store: prepared documents held to be stored together (storeHeld), and their lines. */
  private held: { items: PrepareResult[]; lines: number[] } | undefined

  constructor(
    private readonly store: PreparingStore,
    private readonly pool: PreparePool,
    private readonly report: IngestReport,
  ) {}

  /**
   * Queues one document (a JsonText is prepared on a worker; any other value here, later).
   * Returns a promise, to be awaited, only when a batch was sent.
   */
  add(line: number, doc: unknown): Promise<void> | undefined {
    this.lines.push(line)
    this.docs.push(doc)
    if (doc instanceof JsonText) this.chars += doc.utf8 !== undefined ? doc.utf8.length : doc.text.length
    return this.docs.length >= BATCH_DOCS || this.chars >= BATCH_CHARS ? this.send() : undefined
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
    await this.storeHeld()
  }

  private async send(): Promise<void> {
    if (this.docs.length === 0) return
    this.segments.push({ lines: this.lines, docs: this.docs, texts: this.prepareBatch(this.docs) })
    this.lines = []
    this.docs = []
    this.chars = 0
    await this.drain(AHEAD)
    await this.slicer.pause()
  }

  /**
   * Hands a batch to the workers. (Preparing batches on this thread too when the workers are
   * busy gained no clear ingest speed in the bench and doubled lookups' p99 during a large
   * ingest: this thread is the one that answers them.)
   */
  private prepareBatch(docs: unknown[]): Promise<PrepareResult[] | null> {
    // Documents with bytes go as bytes, packed in one buffer (moved to a worker thread, copied
    // to a process): this thread never decodes them (a text kept as it is is stored from its bytes).
    let size = 0
    for (const doc of docs) if (doc instanceof JsonText && doc.utf8 !== undefined) size += doc.utf8.length
    const bytes = Buffer.allocUnsafeSlow(size)
    const items: (number | string)[] = []
    let at = 0
    for (const doc of docs) {
      if (!(doc instanceof JsonText)) continue
      if (doc.utf8 === undefined) items.push(doc.text)
      else {
        bytes.set(doc.utf8, at)
        items.push((at += doc.utf8.length))
      }
    }
    if (items.length === 0) return Promise.resolve([])
    // A worker that fails leaves its batches to the main thread (null), as before issue 14.
    return this.pool.prepare({ bytes, items }).catch(() => null)
  }

  private async drain(keep: number): Promise<void> {
    while (this.segments.length > keep) {
      const segment = this.segments.shift()!
      if ('error' in segment) {
        await this.storeHeld() // the lines before it are reported first
        this.report.rejected.push({ line: segment.line, errors: [segment.error] })
      } else await this.storeBatch(segment)
    }
  }

  /** Stores one batch's results in slices that leave the event loop to lookups in between. */
  private async storeBatch(batch: Batch): Promise<void> {
    const fromWorker = await batch.texts
    let next = 0
    const itemAt = (i: number): PrepareResult => {
      const doc = batch.docs[i]
      if (!(doc instanceof JsonText)) return prepare(doc)
      const result = fromWorker === null ? prepare(doc) : fromWorker[next++]!
      // A text kept as it is: its bytes, from the batch's buffer (kept by the store as they are)
      // or else from the input (`json` then stays KEPT_AS_SENT: jsonOf() decodes them if a
      // listener asks); without bytes, its own text.
      if (result.ok && result.json === KEPT_AS_SENT && result.utf8 === undefined) {
        if (doc.utf8 !== undefined) result.utf8 = doc.utf8
        else result.json = doc.text
      }
      return result
    }
    if (this.held !== undefined) {
      for (let i = 0; i < batch.docs.length; i++) {
        this.held.items.push(itemAt(i))
        this.held.lines.push(batch.lines[i]!)
      }
      if (this.held.items.length >= HELD_DOCS) await this.storeHeld()
      return
    }
    for (let from = 0; from < batch.docs.length; ) {
      // The answer may have arrived in this very turn (taking it in is part of the slice).
      await this.slicer.pause()
      const started = performance.now()
      const to = Math.min(batch.docs.length, from + this.slicer.room())
      const items: PrepareResult[] = []
      for (let i = from; i < to; i++) items.push(itemAt(i))
      const pending = this.store.ingestPrepared(items)
      if (pending instanceof Promise) {
        // An async store (PostgreSQL) waits on I/O, not on this thread: from now on batches are
        // held and stored together, in transactions of the size its own ingest() uses.
        this.held = { items: [], lines: [] }
        this.count(await pending, batch.lines, from)
        for (let i = to; i < batch.docs.length; i++) {
          this.held.items.push(itemAt(i))
          this.held.lines.push(batch.lines[i]!)
        }
        return
      }
      this.slicer.measured(to - from, performance.now() - started)
      this.count(pending, batch.lines, from)
      from = to
    }
  }

  /** Stores what is held for an async store, in one call. */
  private async storeHeld(): Promise<void> {
    if (this.held === undefined || this.held.items.length === 0) return
    const { items, lines } = this.held
    this.held = { items: [], lines: [] }
    this.count(await this.store.ingestPrepared(items), lines, 0)
  }

  /** Adds a store result to the report; its indexes count from `lines[from]`. */
  private count(result: IngestResult, lines: readonly number[], from: number): void {
    this.report.accepted += result.accepted
    this.report.duplicates += result.duplicates
    for (const r of result.rejected) this.report.rejected.push({ line: lines[from + r.index]!, errors: r.errors })
  }
}
