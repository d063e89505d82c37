/** What the main thread and the worker threads of `--jobs` send each other. */
import type { Line, LineProblem } from '../../jsonl/index.js'
import type { LineList } from './output.js'

/** The commands that can run on worker threads, by the name of their job module. */
export type JobName = 'validate' | 'normalize' | 'fingerprint' | 'convert' | 'filter'

/** Given once to each worker: which job, for which input, with which settings. */
export interface JobSetup {
  job: JobName
  /** The input's name in messages (a path or `<stdin>`). */
  file: string
  maxLineBytes: number
  /** The command's own settings, as plain data. */
  settings: unknown
}

/**
 * A run of whole lines of the input (a byte order mark opening the input already dropped), as
 * pieces to be read one after another (blocks.ts). Their memory is moved to the worker, not
 * copied. A record too long to hold is sent as `tooLong` without its bytes.
 */
export interface Block {
  seq: number
  parts: Uint8Array[]
  /** 1-based number of the block's first line. */
  firstLine: number
  /** Byte offset of the block's first byte in the input. */
  firstOffset: number
  /** A record over the bound, sent without its bytes: a line, or a value spread over lines. */
  tooLong?: true | 'value'
  /** Memory whose bytes were written, given back for the job's output (output.ts, giveBack). */
  out?: ArrayBuffer
}

/**
 * What a job made of one block: per output stream its lines (null: none), and its counts.
 * stdout and the third output come as UTF-8 bytes with a newline after each line (a worker
 * encodes them where the work is, and they are moved rather than copied); stderr as text,
 * lines joined by `\n` (convert fills event numbers into it before it is written).
 */
export interface BlockResult {
  seq: number
  /** Per output stream: 0 stdout, 1 stderr, 2 the command's third output. */
  texts: (string | Uint8Array | null)[]
  counts: number[]
  /** From a worker: the memory of the block's input, moved back to be read into again (read-here.ts). */
  inputs?: ArrayBuffer[]
}

/** A line of a block, with its bytes when they are exactly the UTF-8 of its text (valid input). */
export interface BlockLine extends Line {
  bytes: Buffer | undefined
}

export type BlockLineItem = BlockLine | LineProblem

/** A command's per-line work, run in a worker. */
export interface LineJob {
  /** Handles one record (or a problem), appending to `out`. */
  line(item: BlockLineItem, out: JobOutput): void
  /** A pretty-printed array gives one record per element (default), or is one record (validate without --array). */
  elements?: boolean
}

/** A command's work on a whole block (a converter reads the block as a stream), run in a worker. */
export interface BlockJob {
  block(block: Block, out: JobOutput): Promise<void>
}

export type Job = LineJob | BlockJob

/** Lines per output stream, and the command's counters (validate: valid, invalid; …). */
export interface JobOutput {
  streams: LineList[]
  counts: number[]
}

/** Creates a job from its setup (in the worker); may load what the job needs first. */
export type JobFactory = (setup: JobSetup) => Job | Promise<Job>
