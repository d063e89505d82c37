/**
 * A prepare worker on a thread of this process (prepare-worker.ts run by node:worker_threads).
 * Batches' buffers are moved to it and back, not copied. It lowers its own priority (see
 * worker-priority.ts), but V8's helper threads, which do its garbage collection and
 * compilation, are the process's and keep theirs: a child process (prepare-process.ts) has
 * its own.
 */
import { Worker } from 'node:worker_threads'
import type { PrepareResult } from '../store/prepare.js'
import { moved, type PreparedAnswer, type PrepareBatch, unpackAnswer } from './prepare-batch.js'
import { AnswerQueue, type PrepareWorker } from './prepare-queue.js'
import type { WorkerPriority } from './worker-priority.js'
import { runnable } from '../worker-source.js'

export class ThreadWorker implements PrepareWorker {
  private readonly queue = new AnswerQueue((busy) => (busy ? this.thread.ref() : this.thread.unref()))
  private readonly thread: Worker

  constructor(url: URL, priority: WorkerPriority) {
    this.thread = new Worker(runnable(url), { workerData: { priority } })
    // Referenced only while it has batches to answer: an idle worker never keeps the process alive.
    this.thread.unref()
    this.thread.on('message', (answer: PreparedAnswer) => this.queue.answered(() => unpackAnswer(answer)))
    this.thread.on('error', (error) => this.queue.fail(error))
    this.thread.on('exit', (code) => this.queue.fail(new Error(`a prepare worker stopped (exit code ${code})`)))
  }

  get waiting(): number {
    return this.queue.length
  }

  get failed(): boolean {
    return this.queue.failed
  }

  prepare(batch: PrepareBatch): Promise<PrepareResult[]> {
    // The bytes are moved, not copied (the batch's own buffer: see offload.ts).
    return this.queue.add(batch, (b) => this.thread.postMessage(b, moved(b)))
  }

  async close(): Promise<void> {
    this.thread.removeAllListeners('exit')
    this.queue.fail(new Error('the prepare worker was closed'))
    await this.thread.terminate()
  }
}
