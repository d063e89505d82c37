/**
 * `--jobs N`: a command's JSON Lines input handled by worker threads. The main thread reads
 * the input, cuts it into blocks of whole lines (blocks.ts), keeps each worker a few blocks
 * deep, runs a block itself when it would otherwise wait, and writes each block's output in
 * input order, so the output is byte for byte what one thread writes. Memory stays bounded:
 * at most a few blocks per job are read ahead of the output.
 *
 * Inputs that are small, or that are not JSON Lines (one document or an array spread over
 * lines: the sequential reader decides that on the first line), are left to the command's
 * own loop.
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { type LineItem, LineSplitter, toBuffer } from '../../jsonl/lines.js'
import { isJsonText } from '../../jsonl/parse.js'
import type { NamedInput } from '../inputs.js'
import { blocksOf } from './blocks.js'
import { blockRunner } from './jobs/index.js'
import { giveBack, takeSpare } from './output.js'
import { Pool } from './pool.js'
import { giveBackChunk, readHere } from './read-here.js'
import { defaultJobs, MIN_PARALLEL_BYTES, stopPrestarted, workerCount } from './prestart.js'
import type { Block, BlockResult, JobName } from './types.js'

/** Where a job's output stream goes: a JsonlWriter, or anything that writes a line alike. */
export interface LineSink {
  /** Writes `text` and a newline; a promise when the caller must wait (backpressure). */
  write(text: string): Promise<void> | undefined
  /**
   * Writes bytes holding whole lines, newlines included (stdout and the third output come so);
   * calls `written`, if given, once the bytes are written and their memory is free again.
   */
  writeBytes(bytes: Uint8Array, written?: () => void): Promise<void> | undefined
}

export { defaultJobs }

/** Blocks each worker is given ahead: enough that it never waits for the next one. */
const DEPTH = 2
/** Blocks read ahead of what is written, per job: what bounds memory. */
const READ_AHEAD = 4

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
 * `writers[i]`; otherwise hands the input back, unread, for the command's own loop. A file's
 * size says at once whether it is large enough; standard input is read ahead to find out.
 */
export async function runJobs(input: Pick<NamedInput, 'name' | 'stream' | 'size'>, plan: JobsPlan, writers: readonly (LineSink | undefined)[]): Promise<JobsOutcome> {
  const outcome = await withJobs(input, plan, writers)
  if ('rest' in outcome) stopPrestarted() // workers started early that this input does not need
  return outcome
}

async function withJobs(input: Pick<NamedInput, 'name' | 'stream' | 'size'>, plan: JobsPlan, writers: readonly (LineSink | undefined)[]): Promise<JobsOutcome> {
  if (plan.jobs <= 1 || !workerAvailable()) return { rest: input.stream }
  if (input.size !== undefined && input.size < MIN_PARALLEL_BYTES) return { rest: input.stream }
  const readAhead = input.size === undefined ? MIN_PARALLEL_BYTES : 0
  const here = readHere(input.stream)
  const iterator = (here ?? input.stream)[Symbol.asyncIterator]()
  const held: Buffer[] = []
  let heldBytes = 0
  let first: LineItem | undefined
  const splitter = new LineSplitter(plan.maxLineBytes)
  const found: LineItem[] = []
  let ended = false
  let array = false
  while (heldBytes < readAhead || first === undefined) {
    const next = await iterator.next()
    if (next.done) {
      ended = true
      break
    }
    const chunk = toBuffer(next.value)
    held.push(chunk)
    heldBytes += chunk.length
    // An input that is one JSON array (often all on one line) is read here, an element at a
    // time (jsonl/pieces.ts): blocks are cut between lines, and its line may be the whole input.
    if (first === undefined && startsArray(held)) {
      array = true
      break
    }
    if (first === undefined) {
      splitter.push(chunk, found)
      first = found[0]
      found.length = 0
    }
  }
  const rest = replay(held, ended ? undefined : iterator)
  if (array || (ended && heldBytes < MIN_PARALLEL_BYTES) || first === undefined || 'error' in first || !isJsonText(first.text)) return { rest }
  // A file read here comes in the read pool's memory already; other inputs are copied into it.
  return { counts: await inWorkers(rest, plan, input.name, writers, here === undefined) }
}

/** Whether the first byte of `held` that is not blank (nor a byte order mark) opens an array. */
function startsArray(held: readonly Buffer[]): boolean {
  for (const chunk of held) {
    for (const b of chunk) {
      if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0xef || b === 0xbb || b === 0xbf) continue
      return b === 0x5b
    }
  }
  return false
}

/** One block on its way: read, then run (by a worker or here), then written in input order. */
interface Slot {
  block: Block
  result?: Promise<BlockResult>
  done: boolean
}

/**
 * N jobs = N - 1 worker threads plus the main thread. Each worker is kept DEPTH blocks deep;
 * the main thread reads, writes in input order, and runs a block itself whenever it would
 * otherwise wait for the oldest one. Read-ahead is bounded (READ_AHEAD blocks a job), so
 * memory is too.
 */
async function inWorkers(input: AsyncIterable<Uint8Array>, plan: JobsPlan, file: string, writers: readonly (LineSink | undefined)[], pooled: boolean): Promise<number[]> {
  const setup = { job: plan.job, file, maxLineBytes: plan.maxLineBytes, settings: plan.settings }
  // With a JS thread on every core, the helper task of a young-generation collection has no
  // core of its own, and the thread that started the collection waits for it to be scheduled.
  // One task, on that thread, measured ~2 % faster (normalize --jobs 2, 100 MB, three runs of
  // 12–20 interleaved rounds). V8 reads this flag at each collection
  // (ScavengerCollector::NumberOfScavengeTasks), so setting it now is safe; it holds for every
  // isolate of the process until it ends (a command asked to keep every core busy). node:v8
  // is loaded here only: this module is loaded by every start of the stream commands.
  const v8 = createRequire(import.meta.url)('node:v8') as typeof import('node:v8')
  if (plan.jobs >= availableParallelism()) v8.setFlagsFromString('--no-parallel-scavenge')
  // Young generations that stay at their first size (issue 33). With the default growth each
  // isolate's young generation doubled after a few seconds of steady allocation, up to 16 MiB
  // semi-spaces: ~40 MB of heap per thread (the main thread runs blocks too), so a longer input
  // peaked higher (Shodan .json.gz, --jobs 2: 175 MB at 100 MB, 222 MB at 400 MB). Kept at
  // their first size, the run peaks at ~150 MB whatever the input, at the same speed
  // (bench/jobs-memory.bench.ts). Read at each collection, for every isolate of the process.
  v8.setFlagsFromString('--semi-space-growth-factor=1')
  // The workers first (or those started with the process: prestart.ts), so that they load
  // their modules while this thread loads its own runner.
  const pool = new Pool(WORKER_URL, setup, workerCount(plan.jobs))
  const counts = [0, 0, 0]
  const write = async (result: BlockResult) => {
    for (let i = 0; i < result.texts.length; i++) {
      const out = result.texts[i]
      const writer = writers[i]
      if (out === null || out === undefined || !writer) continue
      const pending = typeof out !== 'string' ? writer.writeBytes(out, () => giveBack(out.buffer as ArrayBuffer)) : writer.write(plan.fixText ? plan.fixText(i, out, counts) : out)
      if (pending) await pending
    }
    result.counts.forEach((n, i) => (counts[i] = (counts[i] ?? 0) + n)) // a job may add counts after the first three
  }
  try {
    const local = await blockRunner(setup)
    const slots: Slot[] = []
    const start = (slot: Slot, result: Promise<BlockResult>) => {
      slot.result = result
      // Awaited in order below; handled now, so a failure before its turn is not "unhandled".
      result.then(() => (slot.done = true), () => (slot.done = true))
    }
    // Keeps every worker two blocks deep, oldest blocks first.
    const feed = () => {
      for (const slot of slots) {
        if (slot.result) continue
        if (pool.leastBusy() >= DEPTH) return
        slot.block.out = takeSpare() // memory for its output, written already
        start(slot, pool.run(slot.block))
      }
    }
    const runHere = (slot: Slot) => {
      try {
        start(slot, Promise.resolve(local(slot.block)))
      } catch (error) {
        start(slot, Promise.reject(error))
      }
    }
    // Reading runs beside the work: the next block is read (by the thread pool) while this
    // thread runs one, and taken when this thread next yields.
    const blocks = blocksOf(input, plan.maxLineBytes, undefined, pooled)[Symbol.asyncIterator]()
    const readAhead = READ_AHEAD * plan.jobs
    let reading: Promise<void> | undefined
    let ended = false
    let readFailure: { error: unknown } | undefined
    const readNext = (): void => {
      if (reading || ended || slots.length >= readAhead) return
      reading = blocks.next().then(
        (next) => {
          reading = undefined
          if (next.done) ended = true
          else slots.push({ block: next.value, done: false })
          feed()
          readNext()
        },
        (error: unknown) => {
          reading = undefined
          ended = true
          readFailure = { error }
        },
      )
    }
    readNext()
    for (;;) {
      const head = slots[0]
      if (!head) {
        if (ended) break
        await reading
        continue
      }
      if (head.done) {
        slots.shift()
        const result = await head.result!
        // Its input's memory, to read into again: moved back by a worker, or run here (the
        // pieces of a block moved to a worker are empty here).
        // (Each memory once: a block's pieces may share one.)
        for (const memory of new Set([...(result.inputs ?? []), ...head.block.parts.map((part) => part.buffer as ArrayBuffer)])) giveBackChunk(memory)
        await write(result)
        feed()
        readNext()
        continue
      }
      // Rather than wait for the oldest block, run the oldest one nobody has taken (one at a
      // time: a converter's block is asynchronous).
      const spare = slots.find((slot) => !slot.result)
      if (spare) {
        runHere(spare)
        await spare.result!.catch(() => undefined)
        // Let the workers' answers and the next read in (they are events, which a resolved
        // promise does not wait for), so that workers get new blocks before this thread
        // takes another one.
        await new Promise((resolve) => setImmediate(resolve))
        feed()
        continue
      }
      await Promise.race([head.result!.catch(() => undefined), reading ?? head.result!.catch(() => undefined)])
    }
    // A read that failed (a gzip file cut short) ends the input: the blocks read before it
    // have been written above, as one thread writes them, and then the failure is reported.
    if (readFailure) throw readFailure.error
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

