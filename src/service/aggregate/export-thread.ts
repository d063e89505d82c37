/**
 * The bulk export's worker thread (export-worker.ts): an export of more than one batch of
 * events has its aggregation lines made there, so the thread that answers lookups only reads the
 * store and writes the answer, and the two run at once. One thread per process, started at the
 * first large export and kept (idle, it does not keep the process alive); one that failed is
 * replaced at the next export. A small export is made in-thread (exportLines), with the same
 * code, so its lines are the same.
 */
import { Worker } from 'node:worker_threads'
import type { Instant } from '../../time/index.js'
import { runnable, workerModule } from '../worker-source.js'
import type { SeenEvent } from '../store/types.js'
import { instantOf } from './aggregate.js'
import { type ExportAnswer, type ExportBatch, type ExportDrop, type ExportRecycle, movedOf, packBatch } from './export-batch.js'
import { type Batch, eventReader, type EventReader } from './export-reader.js'
import { type AggregationLine, LineMaker } from './lines.js'
import { LineChunk } from './pieces.js'

/** Batches an export has sent ahead of the answer being written: made while it is written. */
const IN_FLIGHT = 3
/** Batch buffers kept for reuse (fresh memory costs a page fault per 4 KB on first touch). */
const SPARES = 2

/** The worker thread and the answers it owes, by export. */
export class ExportThread {
  /** The thread itself (the tests stop it). */
  readonly thread: Worker
  private readonly waiting = new Map<number, { resolve(lines: LineChunk | undefined): void; reject(e: Error): void }[]>()
  /** Batch buffers the worker gave back, for the next batches. */
  private readonly spares: ArrayBuffer[] = []
  private outstanding = 0
  private nextId = 1
  /** It stopped or failed: its exports were failed, and sharedExportThread() starts another. */
  failed = false

  constructor(url: URL) {
    this.thread = new Worker(runnable(url))
    this.thread.unref()
    this.thread.on('message', (answer: ExportAnswer) => this.answered(answer))
    this.thread.on('error', (error) => this.fail(error))
    this.thread.on('exit', (code) => this.fail(new Error(`the export worker stopped (exit code ${code})`)))
  }

  /** A new export's number. */
  open(): number {
    return this.nextId++
  }

  /** A batch buffer given back by the worker, if one is at hand (packBatch's `spare`). */
  spare(): ArrayBuffer | undefined {
    return this.spares.pop()
  }

  /** Sends a batch; resolves with the lines it completed (undefined: none). */
  send(batch: ExportBatch): Promise<LineChunk | undefined> {
    if (this.failed) return Promise.reject(new Error('the export worker failed'))
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(batch.export) ?? []
      queue.push({ resolve, reject })
      this.waiting.set(batch.export, queue)
      // Referenced only while it has batches to answer.
      if (this.outstanding++ === 0) this.thread.ref()
      this.thread.postMessage(batch, movedOf(batch))
    })
  }

  /** Forgets an export that stopped early (its answers still on the way are dropped when they come). */
  drop(id: number): void {
    if (!this.failed) this.thread.postMessage({ export: id, drop: true } satisfies ExportDrop)
  }

  private answered(answer: ExportAnswer): void {
    if (--this.outstanding === 0) this.thread.unref()
    if (answer.spent !== undefined && this.spares.length < SPARES) this.spares.push(answer.spent)
    const queue = this.waiting.get(answer.export)
    const next = queue?.shift()
    if (queue !== undefined && queue.length === 0) this.waiting.delete(answer.export)
    if (next === undefined) return
    if (answer.error !== undefined) next.reject(new Error(answer.error))
    else if (answer.lines === undefined) next.resolve(undefined)
    else {
      const lines = answer.lines
      // Once written to the client, the buffer goes back to the worker for a later answer.
      next.resolve(new LineChunk(Buffer.from(lines, 0, answer.length), () => this.recycle(lines)))
    }
  }

  private recycle(buffer: ArrayBuffer): void {
    if (!this.failed) this.thread.postMessage({ recycle: buffer } satisfies ExportRecycle, [buffer])
  }

  private fail(error: Error): void {
    this.failed = true
    for (const queue of this.waiting.values()) for (const w of queue) w.reject(error)
    this.waiting.clear()
  }
}

let shared: ExportThread | undefined

/** The process's export thread (started on first use; a failed one replaced), or undefined when its module cannot be found. */
export function sharedExportThread(): ExportThread | undefined {
  if (shared !== undefined && !shared.failed) return shared
  const url = workerModule(CANDIDATES, import.meta.url)
  shared = url === undefined ? undefined : new ExportThread(url)
  return shared
}

/** In the built package, the entry dist/service/export-worker.js; run from source, the TypeScript file beside this one. */
const CANDIDATES = ['./service/export-worker.js', '../service/export-worker.js', './export-worker.ts']

/**
 * The aggregation lines of `items` (one resource's events together, as Store.searchByResource
 * gives them): made by the export thread when there is more than one batch of events (`thread`
 * gives it; undefined: none), in this thread otherwise. Each value is one line's pieces, or
 * a chunk of whole lines.
 */
export async function* exportLines(items: AsyncIterable<SeenEvent>, now: Instant, thread: () => ExportThread | undefined = sharedExportThread): AsyncGenerator<AggregationLine | LineChunk> {
  const source = eventReader(items)
  const first = await source.read()
  const worker = first.final ? undefined : thread()
  if (worker === undefined) yield* inThisThread(source, first, now)
  else yield* onWorker(worker, source, first, now)
}

/** The lines made here (a small export, or no worker). */
async function* inThisThread(source: EventReader, first: Batch, now: Instant): AsyncGenerator<AggregationLine> {
  const maker = new LineMaker(now)
  let batch = first
  try {
    for (;;) {
      for (const seen of batch.events) {
        const line = maker.add(seen.json, seen.first ?? instantOf(seen.firstSeen), seen.last ?? instantOf(seen.lastSeen))
        if (line !== undefined) yield line
      }
      if (batch.final) break
      batch = await source.read()
    }
  } finally {
    if (!batch.final) await source.close()
  }
  const last = maker.finish()
  if (last !== undefined) yield last
}

/**
 * The lines made by the worker. A pump reads the store and sends batches on its own, up to
 * IN_FLIGHT answers ahead of the reader, so the worker goes on while the reader waits for the
 * socket to drain; the reader takes the answers in order.
 */
async function* onWorker(worker: ExportThread, source: EventReader, first: Batch, now: Instant): AsyncGenerator<LineChunk> {
  const id = worker.open()
  const answers: Promise<LineChunk | undefined>[] = []
  let sent = false // the final batch
  let stopped = false
  let failure: { error: unknown } | undefined
  let wakeReader: (() => void) | undefined
  let wakePump: (() => void) | undefined
  const pump = (async () => {
    let next: Batch | undefined = first
    try {
      while (!sent) {
        while (answers.length >= IN_FLIGHT && !stopped) await new Promise<void>((resolve) => (wakePump = resolve))
        if (stopped) return
        const batch: Batch = next ?? (await source.read())
        next = undefined
        if (stopped) return
        sent = batch.final
        answers.push(worker.send(packBatch(id, batch.events, now, batch.final, worker.spare())))
        wakeReader?.()
      }
    } catch (error) {
      failure = { error }
      wakeReader?.()
    }
  })()
  try {
    for (;;) {
      if (answers.length === 0) {
        if (failure !== undefined) throw failure.error
        if (sent) break
        await new Promise<void>((resolve) => (wakeReader = resolve))
        continue
      }
      const lines = await answers.shift()!
      wakePump?.()
      if (lines !== undefined) yield lines
    }
  } finally {
    // Stopped early (the client went away, or a failure): the pump stops, the worker forgets the
    // export, answers still on the way are dropped, and the store's read is closed.
    stopped = true
    wakePump?.()
    await pump
    if (!sent || answers.length > 0) {
      worker.drop(id)
      for (const a of answers) a.catch(() => undefined)
      if (!sent) await source.close()
    }
  }
}
