/**
 * Worker threads that run one command's job over blocks of lines. Blocks go to the least busy
 * worker; results come back per worker in the order sent, and are handed on in input order.
 */
import { createRequire } from 'node:module'
import type { Worker } from 'node:worker_threads'
import { transferList } from './blocks.js'
import { takePrestarted } from './prestart.js'
import type { Block, BlockResult, JobSetup } from './types.js'

// Loaded when a worker is started: this module is on every stream command's start-up path.
let threads: typeof import('node:worker_threads') | undefined
const workerThreads = () => (threads ??= createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads'))

interface Pending {
  resolve(result: BlockResult): void
  reject(error: Error): void
}

class JobWorker {
  readonly pending: Pending[] = []
  private failure: Error | undefined
  readonly thread: Worker

  /** A new worker for `setup`, or `started`, a worker started early (prestart.ts), given its setup now. */
  constructor(url: URL, setup: JobSetup, started?: Worker) {
    this.thread = started ?? new (workerThreads().Worker)(url, { workerData: setup })
    if (started) started.postMessage(setup)
    this.thread.on('message', (result: BlockResult) => this.pending.shift()?.resolve(result))
    this.thread.on('error', (error) => this.fail(error))
    this.thread.on('exit', (code) => this.fail(new Error(`a --jobs worker stopped (exit code ${code})`)))
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const p of this.pending.splice(0)) p.reject(this.failure)
  }

  run(block: Block): Promise<BlockResult> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise<BlockResult>((resolve, reject) => {
      this.pending.push({ resolve, reject })
      this.thread.postMessage(block, transferList(block))
    })
  }
}

/** A fixed set of workers for one input. Call close() when done, also after a failure. */
export class Pool {
  private readonly workers: JobWorker[]

  constructor(url: URL, setup: JobSetup, size: number) {
    const started = takePrestarted(setup.job, size)
    this.workers = Array.from({ length: size }, (_, i) => new JobWorker(url, setup, started[i]))
  }

  get size(): number {
    return this.workers.length
  }

  /** How many blocks the least busy worker has in hand. */
  leastBusy(): number {
    return Math.min(...this.workers.map((w) => w.pending.length))
  }

  /** Sends a block to the worker with the fewest blocks in hand. */
  run(block: Block): Promise<BlockResult> {
    let best = this.workers[0]!
    for (const w of this.workers) if (w.pending.length < best.pending.length) best = w
    return best.run(block)
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => {
      w.thread.removeAllListeners('exit')
      return w.thread.terminate()
    }))
  }
}
