/**
 * What a prepare worker (a thread, prepare-thread.ts, or a child process, prepare-process.ts)
 * has been sent and not yet answered. A worker answers batches in the order they were sent, so
 * each answer settles the oldest one; a worker that fails refuses all of them, and every batch
 * sent after.
 */
import type { PrepareResult } from '../store/prepare.js'
import type { PrepareBatch } from './prepare-batch.js'

/** One prepare worker, whatever runs it. */
export interface PrepareWorker {
  /** Batches sent and not yet answered (the pool sends to the least busy worker). */
  readonly waiting: number
  /** It stopped or failed: every batch is refused from then on. */
  readonly failed: boolean
  /** prepare() of each document of the batch, in order. */
  prepare(batch: PrepareBatch): Promise<PrepareResult[]>
  /** Stops it; batches still waiting are refused. */
  close(): Promise<void>
}

/** A sent batch: `bytes` is kept by the sender when the worker gives them back by reference only. */
interface Sent {
  bytes: Uint8Array
  resolve(results: PrepareResult[]): void
  reject(error: Error): void
}

export class AnswerQueue {
  private readonly sent: Sent[] = []
  private failure: Error | undefined

  /**
   * @param busy called with true when the first batch is waiting and false when the last one
   *   was answered (a worker keeps the process alive only while it has work).
   */
  constructor(private readonly busy: (busy: boolean) => void) {}

  get length(): number {
    return this.sent.length
  }

  get failed(): boolean {
    return this.failure !== undefined
  }

  /** Queues a batch and hands it to `send`; the promise settles with its answer (answered()). */
  add(batch: PrepareBatch, send: (batch: PrepareBatch) => void): Promise<PrepareResult[]> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      if (this.sent.push({ bytes: batch.bytes, resolve, reject }) === 1) this.busy(true)
      send(batch)
    })
  }

  /** Settles the oldest batch with what `unpack` makes of its answer (given that batch's bytes). */
  answered(unpack: (bytes: Uint8Array) => PrepareResult[]): void {
    const oldest = this.sent.shift()
    if (oldest === undefined) return
    try {
      oldest.resolve(unpack(oldest.bytes))
    } catch (error) {
      oldest.reject(error as Error)
    }
    if (this.sent.length === 0) this.busy(false)
  }

  /** Refuses every waiting batch, and all later ones, with the first failure. */
  fail(error: Error): void {
    this.failure ??= error
    for (const s of this.sent.splice(0)) s.reject(this.failure)
  }
}
