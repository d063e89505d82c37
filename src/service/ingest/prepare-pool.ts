/**
 * Workers that run prepare() (parse, normalise, validate, serialise) for a large ingest, so
 * the thread that answers lookups only stores the results: threads of this process
 * (prepare-thread.ts), or child processes (prepare-process.ts; see PrepareWorkerKind).
 * Batches go to the least busy worker; each worker answers in the order it was sent, and every
 * batch has its own promise, so the caller decides the order results are used in. The
 * service's ingests share one pool (sharedPreparePool), kept between ingests: a new worker's
 * first batches run cold code, and compiling it takes CPU from the lookups answered meanwhile.
 */
import { availableParallelism } from 'node:os'
import type { PrepareResult } from '../store/prepare.js'
import type { PrepareBatch } from './prepare-batch.js'
import { ProcessWorker } from './prepare-process.js'
import type { PrepareWorker } from './prepare-queue.js'
import { ThreadWorker } from './prepare-thread.js'
import { workerModule } from '../worker-source.js'
import { DEFAULT_WORKER_KIND, fallbackPriority, type PrepareWorkerKind, type WorkerPriority } from './worker-priority.js'

/**
 * Where the worker's module may be, relative to this code: in the built package it is the
 * entry dist/service/prepare-worker.js (this code sits in a chunk at dist/ or in an entry one
 * folder down); run from source, it is the TypeScript file beside this one.
 */
const CANDIDATES = ['./service/prepare-worker.js', '../service/prepare-worker.js', './prepare-worker.ts']

/** The worker module's URL, or undefined when it cannot be found (then ingest stays in-thread). */
export const prepareWorkerUrl = (): URL | undefined => workerModule(CANDIDATES, import.meta.url)

/** One worker for 2 cores (the main thread stores and answers lookups), at most 2. */
export const defaultPrepareWorkers = () => Math.max(1, Math.min(2, availableParallelism() - 1))

let shared: { pool: PreparePool; url: string; priority: WorkerPriority; kind: PrepareWorkerKind } | undefined

/**
 * The process's prepare workers, started on first use and kept for later ingests. Idle, they
 * do not keep the process alive. A pool with a failed worker is replaced, and so is one of
 * another priority or kind.
 */
export function sharedPreparePool(url: URL, priority = fallbackPriority().priority, kind = DEFAULT_WORKER_KIND): PreparePool {
  if (shared !== undefined && (shared.pool.failed || shared.url !== url.href || shared.priority !== priority || shared.kind !== kind)) {
    void shared.pool.close()
    shared = undefined
  }
  shared ??= { pool: new PreparePool(url, undefined, priority, kind), url: url.href, priority, kind }
  return shared.pool
}

/**
 * Starts the shared pool now rather than at the first large ingest, when a worker module is
 * found. Starting a process forks this one, which takes the calling thread about 40 ms per
 * 500 MB this process holds (measured: 8 ms at 40 MB, 73 ms at 1.6 GB); `l9kit serve` does it
 * before it listens, so that no lookup waits on it.
 */
export function startSharedPreparePool(priority = fallbackPriority().priority, kind = DEFAULT_WORKER_KIND): void {
  const url = prepareWorkerUrl()
  if (url !== undefined) sharedPreparePool(url, priority, kind)
}

/** A fixed set of prepare workers. Call close() when done with it (the shared pool is never closed). */
export class PreparePool {
  private readonly workers: PrepareWorker[]

  constructor(url: URL, size = defaultPrepareWorkers(), priority = fallbackPriority().priority, kind = DEFAULT_WORKER_KIND) {
    const Kind = kind === 'process' ? ProcessWorker : ThreadWorker
    this.workers = Array.from({ length: size }, () => new Kind(url, priority))
  }

  /** Number of workers. */
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
    for (const w of this.workers) if (w.waiting < best.waiting) best = w
    return best.prepare(batch)
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()))
  }
}
