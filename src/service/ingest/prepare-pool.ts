/**
 * Worker threads that run prepare() (parse, normalise, validate, serialise) for a large
 * ingest, so the thread that answers lookups only stores the results. Batches go to the least
 * busy worker; each worker answers in the order it was sent, and every batch has its own
 * promise, so the caller decides the order results are used in. The service's ingests share
 * one pool (sharedPreparePool), kept between ingests: a new worker's first batches run cold
 * code, and compiling it takes CPU from the lookups answered meanwhile.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { PrepareResult } from '../store/prepare.js'
import { moved, type PreparedAnswer, type PrepareBatch, unpackAnswer } from './prepare-batch.js'
import { DEFAULT_WORKER_PRIORITY, type WorkerPriority } from './worker-priority.js'

/**
 * Where the worker's module may be, relative to this code: in the built package it is the
 * entry dist/service/prepare-worker.js (this code sits in a chunk at dist/ or in an entry one
 * folder down); run from source, it is the TypeScript file beside this one.
 */
const CANDIDATES = ['./service/prepare-worker.js', '../service/prepare-worker.js', './prepare-worker.ts']

/** The worker module's URL, or undefined when it cannot be found (then ingest stays in-thread). */
export function prepareWorkerUrl(): URL | undefined {
  for (const candidate of CANDIDATES) {
    const url = new URL(candidate, import.meta.url)
    if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) continue
    if (!url.pathname.endsWith('.ts') || tsxAvailable()) return url
  }
  return undefined
}

/** One worker for 2 cores (the main thread stores and answers lookups), at most 2. */
export const defaultPrepareWorkers = () => Math.max(1, Math.min(2, availableParallelism() - 1))

let shared: { pool: PreparePool; url: string; priority: WorkerPriority } | undefined

/**
 * The process's prepare workers, started on first use and kept for later ingests. Idle, they
 * do not keep the process alive. A pool with a failed worker is replaced.
 */
export function sharedPreparePool(url: URL, priority = DEFAULT_WORKER_PRIORITY): PreparePool {
  if (shared !== undefined && (shared.pool.failed || shared.url !== url.href || shared.priority !== priority)) {
    void shared.pool.close()
    shared = undefined
  }
  shared ??= { pool: new PreparePool(url, undefined, priority), url: url.href, priority }
  return shared.pool
}

function tsxAvailable(): boolean {
  try {
    import.meta.resolve('tsx/esm/api')
    return true
  } catch {
    return false
  }
}

/**
 * Run from source (tests, the bench), the worker's module is TypeScript: a small bootstrap
 * registers tsx (a development dependency) in the worker before importing it. (`--import tsx`
 * in the worker's execArgv does not apply to the worker's own entry module on Node 20.)
 */
function fromSource(url: URL): URL {
  const tsx = import.meta.resolve('tsx/esm/api')
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(url.href)})`
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}

interface Pending {
  resolve(results: PrepareResult[]): void
  reject(error: Error): void
}

class PrepareWorker {
  readonly pending: Pending[] = []
  private failure: Error | undefined
  readonly thread: Worker

  constructor(url: URL, priority: WorkerPriority) {
    this.thread = new Worker(url.pathname.endsWith('.ts') ? fromSource(url) : url, { workerData: { priority } })
    // Referenced only while it has batches to answer: an idle worker never keeps the process alive.
    this.thread.unref()
    this.thread.on('message', (answer: PreparedAnswer) => {
      this.pending.shift()?.resolve(unpackAnswer(answer))
      if (this.pending.length === 0) this.thread.unref()
    })
    this.thread.on('error', (error) => this.fail(error))
    this.thread.on('exit', (code) => this.fail(new Error(`a prepare worker stopped (exit code ${code})`)))
  }

  get failed(): boolean {
    return this.failure !== undefined
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const p of this.pending.splice(0)) p.reject(this.failure)
  }

  prepare(batch: PrepareBatch): Promise<PrepareResult[]> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      if (this.pending.push({ resolve, reject }) === 1) this.thread.ref()
      // The bytes are moved, not copied (the batch's own buffer: see offload.ts).
      this.thread.postMessage(batch, moved(batch))
    })
  }
}

/** A fixed set of prepare workers. Call close() when done with it (the shared pool is never closed). */
export class PreparePool {
  private readonly workers: PrepareWorker[]

  constructor(url: URL, size = defaultPrepareWorkers(), priority = DEFAULT_WORKER_PRIORITY) {
    this.workers = Array.from({ length: size }, () => new PrepareWorker(url, priority))
  }

  /** Number of worker threads. */
  get size(): number {
    return this.workers.length
  }

  /** A worker stopped or failed (its batches were refused; the pool is of no more use). */
  get failed(): boolean {
    return this.workers.some((w) => w.failed)
  }

  /** prepare() of each document (as a JsonText), in order, computed on the least busy worker. */
  prepare(batch: PrepareBatch): Promise<PrepareResult[]> {
    let best = this.workers[0]!
    for (const w of this.workers) if (w.pending.length < best.pending.length) best = w
    return best.prepare(batch)
  }

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map((w) => {
        w.thread.removeAllListeners('exit')
        return w.thread.terminate()
      }),
    )
  }
}
