/**
 * A prepare worker in a child process (prepare-worker.ts run by node), started at the
 * configured priority as a whole process: on Linux under `chrt --idle 0`, so that every thread
 * of it, V8's garbage-collection and compiler helpers among them, is in the idle class. (A
 * worker thread can lower only its own priority; its isolate's helpers are the process's,
 * shared with the thread that answers lookups, and kept taking whole 4 ms ticks from it.)
 * Batches go over the IPC channel (V8's serialisation, so a copy each way); a batch's own
 * buffer is not sent back, as this process still has it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { PrepareResult } from '../store/prepare.js'
import { type PreparedAnswer, type PrepareBatch, unpackAnswer } from './prepare-batch.js'
import { AnswerQueue, type PrepareWorker } from './prepare-queue.js'
import { launcherFor, niceFor, type WorkerPriority } from './worker-priority.js'

/** The end of the child's standard error kept for the message when it fails. */
const STDERR_TAIL = 2048

export class ProcessWorker implements PrepareWorker {
  private readonly queue = new AnswerQueue((busy) => this.referenced(busy))
  private readonly child: ChildProcess
  private stderr = ''
  private closing = false

  constructor(url: URL, priority: WorkerPriority) {
    const entry = fileURLToPath(url)
    // From source the entry is TypeScript: tsx (a development dependency) loads it.
    const node = [process.execPath, ...(entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), entry]
    const launcher = launcherFor(priority)
    const [command, ...args] = [...launcher, ...node]
    this.child = spawn(command!, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' })
    const nice = niceFor(priority)
    if (launcher.length === 0 && nice > 0 && this.child.pid !== undefined) {
      try {
        setPriority(this.child.pid, nice) // (best effort, where no launcher program is found)
      } catch {}
    }
    this.child.stderr!.setEncoding('utf8')
    this.child.stderr!.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-STDERR_TAIL)))
    this.referenced(false)
    this.child.on('message', (answer: Omit<PreparedAnswer, 'bytes'> & { bytes?: Uint8Array }) => this.queue.answered((sent) => unpackAnswer({ ...answer, bytes: answer.bytes ?? sent })))
    this.child.on('error', (error) => this.queue.fail(error))
    this.child.on('exit', (code, signal) => {
      if (this.closing) return
      const why = this.stderr.trim() === '' ? '' : `: ${this.stderr.trim()}`
      this.queue.fail(new Error(`a prepare process stopped (${signal ?? `exit code ${code}`})${why}`))
    })
  }

  /** The child's process id (undefined if it could not be started). */
  get pid(): number | undefined {
    return this.child.pid
  }

  get waiting(): number {
    return this.queue.length
  }

  get failed(): boolean {
    return this.queue.failed
  }

  prepare(batch: PrepareBatch): Promise<PrepareResult[]> {
    return this.queue.add(batch, (b) => this.child.send(b, (error: Error | null) => error && this.queue.fail(error)))
  }

  close(): Promise<void> {
    this.closing = true
    this.queue.fail(new Error('the prepare process was closed'))
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve()
    this.referenced(true) // (until it has gone)
    return new Promise((resolve) => {
      this.child.once('exit', () => resolve())
      this.child.kill()
    })
  }

  /** The child keeps this process alive only while it has batches to answer. */
  private referenced(busy: boolean): void {
    const handles = [this.child, this.child.channel, this.child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]
    for (const h of handles) (busy ? h?.ref : h?.unref)?.call(h)
  }
}
