/**
 * `--jobs` workers started as the process starts, before the command has read its options or
 * its first bytes: a worker takes tens of milliseconds to boot Node and load its job, and it
 * does so here while the main thread loads the command. The command's run takes them over
 * (pool.ts); when it does not (a small input, one that is not JSON Lines, a usage error), they
 * are stopped.
 *
 * Started on a strong hint only: a command that runs jobs, no `--jobs 1`, and an argument
 * naming a file of at least MIN_PARALLEL_BYTES. This runs on every start of the CLI, so it
 * costs a few stat calls and loads worker_threads only when it starts one.
 */
import { statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { JobName } from './types.js'

/** Inputs smaller than this are not worth starting workers for (four blocks of 1 MiB). */
export const MIN_PARALLEL_BYTES = 4 << 20

/** Default of `--jobs`: one per core, at most 8. */
export const defaultJobs = () => Math.min(availableParallelism(), 8)

/** Worker threads for N jobs: the main thread is one of the N. */
export const workerCount = (jobs: number) => jobs - 1

/** The commands that run jobs, and their job. */
const JOB_OF: Record<string, JobName> = { validate: 'validate', normalize: 'normalize', fingerprint: 'fingerprint', convert: 'convert', filter: 'filter' }

/** What a worker started early is given: its job, to load while it waits for the rest. */
export interface Preload {
  preload: JobName
}

let waiting: { job: JobName; worker: Worker }[] = []

/** Starts the workers `argv` (the CLI's arguments, command first) will likely want; `url`: the worker's entry. */
export function prestart(argv: readonly string[], url: URL): void {
  const job = JOB_OF[argv[0] ?? '']
  if (!job) return
  const args = argv.slice(1)
  // The option is not checked yet: no more than one worker per core ahead of that (the pool
  // starts any others the command then asks for).
  const count = Math.min(workerCount(jobsOption(args) ?? defaultJobs()), availableParallelism())
  if (!(count >= 1) || !args.some(isLargeFile) || fileSize(fileURLToPath(url)) === undefined) return
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads')
  for (let i = 0; i < count; i++) {
    const worker = new Worker(url, { workerData: { preload: job } satisfies Preload })
    worker.unref() // never what keeps the process alive
    const entry = { job, worker }
    // A worker that fails before it is taken is dropped; once taken, the pool hears of it.
    const drop = () => (waiting = waiting.filter((e) => e !== entry))
    worker.on('error', drop)
    worker.on('exit', drop)
    waiting.push(entry)
  }
}

/** Up to `n` workers started early for `job`, taken over by the caller; the rest are stopped. */
export function takePrestarted(job: JobName, n: number): Worker[] {
  const taken = waiting.filter((e) => e.job === job).slice(0, n)
  for (const { worker } of taken) {
    worker.removeAllListeners()
    worker.ref()
  }
  waiting = waiting.filter((e) => !taken.includes(e))
  stopPrestarted()
  return taken.map((e) => e.worker)
}

/** Stops the workers started early that nobody took. */
export function stopPrestarted(): void {
  for (const { worker } of waiting.splice(0)) {
    worker.removeAllListeners()
    worker.on('error', () => undefined) // it is being stopped: nothing more to hear from it
    void worker.terminate()
  }
}

/** The value of `--jobs N` or `--jobs=N`, if given. */
function jobsOption(args: readonly string[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--jobs') return Number(args[i + 1])
    if (args[i]!.startsWith('--jobs=')) return Number(args[i]!.slice('--jobs='.length))
  }
  return undefined
}

/** The size of the file at `path`; undefined for anything that is not a readable file. */
function fileSize(path: string): number | undefined {
  try {
    const stat = statSync(path)
    return stat.isFile() ? stat.size : undefined
  } catch {
    return undefined
  }
}

const isLargeFile = (arg: string) => !arg.startsWith('-') && (fileSize(arg) ?? 0) >= MIN_PARALLEL_BYTES
