/**
 * `l9kit serve --workers N`: N processes on one port (node:cluster), over a PostgreSQL store
 * they all share. The primary loads the `--load` files once, then forks the workers, which
 * run the same command line (marked by L9KIT_SERVE_WORKER) and only serve. Each worker has
 * its own rate limiter (docs/service.md says why).
 */
import cluster, { type Worker } from 'node:cluster'
import type { Io } from '../command.js'

const MARK = 'L9KIT_SERVE_WORKER'
/** How long workers get to stop after SIGTERM before they are killed. */
const STOP_MS = 10_000
/** Replacements of workers that died after start-up, at most (a crash loop must end). */
const MAX_RESTARTS = 20

/** True in a process that the primary of `serve --workers` forked. */
export const isServeWorker = () => cluster.isWorker && process.env[MARK] === '1'

/** Tells the primary this worker listens at `url`. */
export function reportListening(url: string): void {
  process.send?.({ l9kit: 'listening', url })
}

/** Closes the channel to the primary, which would otherwise keep a stopped worker alive. */
export function leaveGroup(): void {
  if (process.connected) process.disconnect()
}

export interface WorkerGroup {
  url: string
  /** Sends SIGTERM to every worker and waits for them to exit (killing those that take too long). */
  stop(): Promise<void>
}

/** Forks `count` workers; resolves when all listen, rejects if one exits before it does. */
export function startWorkers(count: number, io: Io): Promise<WorkerGroup> {
  const workers = new Set<Worker>()
  let started = false
  let stopping = false
  let restarts = 0
  return new Promise((resolve, reject) => {
    let listening = 0
    let url = ''
    const fork = () => {
      const worker = cluster.fork({ [MARK]: '1' })
      workers.add(worker)
      worker.on('message', (message: { l9kit?: string; url?: string }) => {
        if (message?.l9kit !== 'listening' || started) return
        url = message.url ?? url
        if (++listening === count) {
          started = true
          resolve({ url, stop })
        }
      })
      worker.on('exit', (code, signal) => {
        workers.delete(worker)
        if (stopping) return
        if (!started) {
          stopping = true
          void stop().then(() => reject(new Error(`a worker stopped before it listened (${signal ?? `exit ${code}`})`)))
          return
        }
        io.stderr.write(`l9kit serve: worker ${worker.process.pid} stopped (${signal ?? `exit ${code}`})`)
        if (restarts++ < MAX_RESTARTS) {
          io.stderr.write('; starting another\n')
          fork()
        } else io.stderr.write('; too many restarts, not replaced\n')
      })
    }
    const stop = async () => {
      stopping = true
      const exits = [...workers].map((w) => new Promise<void>((done) => (w.isDead() ? done() : w.once('exit', () => done()))))
      for (const w of workers) w.process.kill('SIGTERM')
      const timer = setTimeout(() => {
        for (const w of workers) w.process.kill('SIGKILL')
      }, STOP_MS)
      await Promise.all(exits)
      clearTimeout(timer)
    }
    for (let i = 0; i < count; i++) fork()
  })
}
