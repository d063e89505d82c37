/**
 * The service's search evaluation thread: an Evaluator (store/evaluator.ts) that runs each batch
 * of events a search must evaluate on a worker thread in Linux's idle scheduling class (or the
 * niceness given), never on the thread that answers lookups. One thread per process, started at
 * the first batch and kept (idle, it keeps nothing alive); batches are answered in the order
 * sent, so searches that each wait for their last batch before sending the next take turns. A
 * thread that failed fails its batches and is replaced at the next one.
 */
import { Worker } from 'node:worker_threads'
import type { WorkerPriority } from '../ingest/worker-priority.js'
import { batchBuffers, type EvalBatch, type Evaluator } from '../store/evaluator.js'
import { runnable, workerModule } from '../worker-source.js'
import type { EvalAnswer, EvalRequest } from './eval-messages.js'

/** In the built package, the entry dist/service/eval-worker.js; run from source, the TypeScript file beside this one. */
const CANDIDATES = ['./service/eval-worker.js', '../service/eval-worker.js', './eval-worker.ts']

export class EvalThread implements Evaluator {
  private worker: Worker | undefined
  private readonly waiting = new Map<number, { resolve(hits: Uint8Array): void; reject(error: Error): void }>()
  private nextId = 1

  constructor(
    private readonly url: URL,
    private readonly priority: WorkerPriority,
  ) {}

  evaluate(batch: EvalBatch): Promise<Uint8Array> {
    const worker = (this.worker ??= this.start())
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) worker.ref()
      this.waiting.set(id, { resolve, reject })
      worker.postMessage({ id, batch } satisfies EvalRequest, batchBuffers(batch))
    })
  }

  /** Batches sent and not yet answered. */
  get pending(): number {
    return this.waiting.size
  }

  /** Stops the thread (its batches fail); the next batch starts another. */
  async stop(): Promise<void> {
    const worker = this.worker
    if (worker !== undefined) await worker.terminate()
  }

  private start(): Worker {
    const worker = new Worker(runnable(this.url), { workerData: { priority: this.priority } })
    worker.unref()
    worker.on('message', (answer: EvalAnswer) => {
      const w = this.waiting.get(answer.id)
      if (w === undefined) return
      this.waiting.delete(answer.id)
      if (this.waiting.size === 0) worker.unref()
      if (answer.hits !== undefined) w.resolve(answer.hits)
      else w.reject(new Error(`the search evaluation failed: ${answer.error ?? 'no answer'}`))
    })
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined
      for (const w of this.waiting.values()) w.reject(error)
      this.waiting.clear()
    }
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the search evaluation thread stopped (exit code ${code})`)))
    return worker
  }
}

let shared: EvalThread | undefined

/** The process's evaluation thread (made on first use), or undefined when its module cannot be found (searches then evaluate in slices in this thread). */
export function sharedEvalThread(priority: WorkerPriority): EvalThread | undefined {
  if (shared !== undefined) return shared
  const url = workerModule(CANDIDATES, import.meta.url)
  shared = url === undefined ? undefined : new EvalThread(url, priority)
  return shared
}
