/**
 * `--jobs N`: a command's JSON Lines input handled by N worker threads. The main thread reads
 * the input, cuts it into blocks of whole lines (blocks.ts), hands them to N - 1 workers and
 * works on some itself, and writes each block's output in input order, so the output is byte
 * for byte what one thread writes. Memory stays bounded: at most two blocks per job are read
 * ahead of the output.
 *
 * Inputs that are small, or that are not JSON Lines (one document or an array spread over
 * lines: the sequential reader decides that on the first line), are left to the command's
 * own loop.
 */
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
/** Where a job's output stream goes: a JsonlWriter, or anything that writes a line alike. */
export interface LineSink {
  /** Writes `text` and a newline; a promise when the caller must wait (backpressure). */
  write(text: string): Promise<void> | undefined
}
import { type LineItem, LineSplitter, toBuffer } from '../../jsonl/lines.js'
import { isJsonText } from '../../jsonl/parse.js'
import type { NamedInput } from '../inputs.js'
import { BLOCK_BYTES, blocksOf } from './blocks.js'
import { blockRunner } from './jobs/index.js'
import { Pool } from './pool.js'
import type { BlockResult, JobName } from './types.js'

/** Default of `--jobs`: one per core, at most 8. */
export const defaultJobs = () => Math.min(availableParallelism(), 8)

/** Inputs smaller than this are not worth starting workers for. */
const MIN_PARALLEL_BYTES = 4 * BLOCK_BYTES

/** The worker's entry point in the built package (dist/cli/jobs-worker.js); absent when run from source. */
const WORKER_URL = new URL('./cli/jobs-worker.js', import.meta.url)
const workerAvailable = () => WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL))

export interface JobsPlan {
  job: JobName
  jobs: number
  maxLineBytes: number
  /** The command's settings, as plain data (structured-cloned to each worker). */
  settings: unknown
  /** Rewrites a block's text for stream `stream` before it is written, given the counts of the blocks before it. */
  fixText?(stream: number, text: string, countsBefore: readonly number[]): string
}

/** Either the input was handled by workers (their counts, summed), or the command reads `rest` itself. */
export type JobsOutcome = { counts: number[] } | { rest: AsyncIterable<Uint8Array> }

/**
 * Runs the job over `input` on worker threads when that pays, writing output stream i to
 * `writers[i]`; otherwise hands the input back, unread, for the command's own loop.
 */
export async function runJobs(input: Pick<NamedInput, 'name' | 'stream'>, plan: JobsPlan, writers: readonly (LineSink | undefined)[]): Promise<JobsOutcome> {
  if (plan.jobs <= 1 || !workerAvailable()) return { rest: input.stream }
  const iterator = input.stream[Symbol.asyncIterator]()
  const held: Buffer[] = []
  let heldBytes = 0
  let first: LineItem | undefined
  const splitter = new LineSplitter(plan.maxLineBytes)
  const found: LineItem[] = []
  let ended = false
  while (heldBytes < MIN_PARALLEL_BYTES || first === undefined) {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      break
    }
    const chunk = toBuffer(next.value)
    held.push(chunk)
    heldBytes += chunk.length
    if (first === undefined) {
      splitter.push(chunk, found)
      first = found[0]
      found.length = 0
    }
  }
  const rest = replay(held, ended ? undefined : iterator)
  if (ended || first === undefined || 'error' in first || !isJsonText(first.text)) return { rest }
  return { counts: await inWorkers(rest, plan, input.name, writers) }
}

/**
 * N jobs = N - 1 worker threads plus the main thread, which takes a block whenever every
 * worker has two in hand (it is otherwise idle: reading and writing cost little).
 */
async function inWorkers(input: AsyncIterable<Uint8Array>, plan: JobsPlan, file: string, writers: readonly (LineSink | undefined)[]): Promise<number[]> {
  const setup = { job: plan.job, file, maxLineBytes: plan.maxLineBytes, settings: plan.settings }
  // The local runner first: if it fails, no worker thread has been started to keep the process alive.
  const local = await blockRunner(setup)
  const pool = new Pool(WORKER_URL, setup, plan.jobs - 1)
  const counts = [0, 0, 0]
  const write = async (result: BlockResult) => {
    for (let i = 0; i < result.texts.length; i++) {
      const text = result.texts[i]
      if (text !== null && text !== undefined && writers[i]) {
        const pending = writers[i]!.write(plan.fixText ? plan.fixText(i, text, counts) : text)
        if (pending) await pending
      }
    }
    result.counts.forEach((n, i) => (counts[i]! += n))
  }
  const queue: Promise<BlockResult>[] = []
  const runLocal = async (block: Parameters<typeof local>[0]) => local(block)
  try {
    for await (const block of blocksOf(input, plan.maxLineBytes)) {
      const result = pool.leastBusy() < 2 ? pool.run(block) : runLocal(block)
      // Awaited in order below; handled now, so a failure before its turn is not "unhandled".
      result.catch(() => undefined)
      queue.push(result)
      while (queue.length >= 2 * plan.jobs) await write(await queue.shift()!)
    }
    while (queue.length > 0) await write(await queue.shift()!)
  } finally {
    await pool.close()
  }
  return counts
}

/** The chunks read ahead, then the rest of the input. */
async function* replay(held: Buffer[], rest: AsyncIterator<Uint8Array | string> | undefined): AsyncGenerator<Uint8Array> {
  while (held.length > 0) yield held.shift()!
  if (!rest) return
  for (;;) {
    const next = await rest.next()
    if (next.done) return
    yield toBuffer(next.value)
  }
}

