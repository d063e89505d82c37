/**
 * Cutting an input into blocks of whole records for the worker threads, counting lines as it
 * goes so that each block knows the number of its first line. A block ends only where a record
 * surely does: at a line break between a line ending in `}` or `]` and a line starting with `{`
 * or `[` at the left margin. In JSON Lines that is every line break; inside a value spread over
 * lines (`jq .` output, a pretty-printed array) there is none, since encoders indent what is
 * inside a value and end its lines in `,` or an opening bracket. So a worker reads its block as
 * the sequential reader reads the same lines (jsonl/values.ts). An unfinished record longer
 * than the bound is not held: it becomes a `tooLong` block without bytes, as the sequential
 * reader reports it.
 *
 * A block is a list of pieces of the input. A chunk that owns its whole memory (a file read
 * gives one per 1 MiB read) goes into a block as it is and is later moved to the worker, not
 * copied; only the unfinished line at a block's end is copied, to open the next block. Chunks
 * that share memory (a pooled buffer, a view into a larger one) are copied.
 */
import { toBuffer } from '../../jsonl/lines.js'
import { chunkMemory } from './read-here.js'
import type { Block } from './types.js'

/**
 * Bytes of whole lines that make a block: large enough that messaging costs nothing next to
 * the work. Half a read (1 MiB, CHUNK_BYTES), so that each read makes a block of its own: at
 * 1 MiB a block waited for a second read and came out near 2 MiB, which left a thread idle
 * longer at the end (waiting for the other's last blocks) and was slower to go through the
 * caches (measured: --jobs 2 normalize ~10 % faster with the smaller blocks).
 */
export const BLOCK_BYTES = 512 * 1024

const NL = 0x0a
const CR = 0x0d

/** Number of `\n` bytes in `bytes[from, to)`. */
function countLines(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let n = 0
  for (let i = bytes.indexOf(NL, from); i !== -1 && i < to; i = bytes.indexOf(NL, i + 1)) n++
  return n
}

const closes = (b: number | undefined) => b === 0x7d || b === 0x5d
const isBlank = (b: number | undefined) => b === 0x20 || b === 0x09 || b === CR

/** Whether the line `bytes[from, to)` opens a value it does not close (as ValueSplitter reads lines). */
function opensValueAt(bytes: Uint8Array, from: number, to: number): boolean {
  let a = from
  while (a < to && isBlank(bytes[a])) a++
  if (a === to || !(bytes[a] === 0x7b || bytes[a] === 0x5b)) return false
  let z = to - 1
  while (z > a && isBlank(bytes[z])) z--
  return z === a || !closes(bytes[z])
}
const opens = (b: number | undefined) => b === 0x7b || b === 0x5b

/**
 * Whether the `\n` at `nl` of `bytes` ends a record: the line before it ends in `}` or `]`
 * (a CR aside), the line after it starts with `{` or `[`. `before` and `after` stand for the
 * bytes just outside `bytes` (undefined: not known yet).
 */
function recordEnd(bytes: Uint8Array, nl: number, before: number | undefined, after: number | undefined): boolean {
  const next = nl + 1 < bytes.length ? bytes[nl + 1] : after
  if (!opens(next)) return false
  let prev = nl > 0 ? bytes[nl - 1] : before
  if (prev === CR) prev = nl > 1 ? bytes[nl - 2] : nl === 1 ? before : undefined
  return closes(prev)
}

/** Whether `bytes` is the whole of its memory, so that moving that memory moves nothing else. */
const ownsItsMemory = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength


/** Bytes held, as a list of chunks: complete records, then an unfinished one. */
class Held {
  /** `pooled`: every piece is copied into the read pool's memory (see take()). */
  constructor(private readonly pooled = false) {}

  parts: Uint8Array[] = []
  size = 0
  /** Bytes up to and including the last `\n` held that ends a record, and how many lines they hold. */
  complete = 0
  lines = 0
  /** Line breaks after `complete`. */
  pending = 0
  /** The last two bytes held (a record end at a chunk's edge). */
  private last: number | undefined
  private beforeLast: number | undefined

  add(chunk: Uint8Array): void {
    const base = this.size
    this.parts.push(chunk)
    this.size += chunk.length
    if (chunk.length === 0) return
    // The last record end in the chunk, looking back from its end (JSON Lines: its last line
    // break but one: what follows the very last is not known yet). Missing one is harmless.
    let cut = -1
    for (let nl = chunk.lastIndexOf(NL); nl > 0 || (nl === 0 && this.last !== undefined); nl = nl === 0 ? -1 : chunk.lastIndexOf(NL, nl - 1)) {
      if (nl < chunk.length - 1 && recordEnd(chunk, nl, this.last, undefined)) {
        cut = nl
        break
      }
    }
    if (cut !== -1) {
      this.lines += this.pending + countLines(chunk, 0, cut + 1)
      this.pending = countLines(chunk, cut + 1)
      this.complete = base + cut + 1
    } else {
      // The line break that ended the bytes before: this chunk's first byte says whether it ends a record.
      const prev = this.beforeLast
      if (this.last === NL && opens(chunk[0]) && closes(prev)) {
        this.lines += this.pending
        this.pending = 0
        this.complete = base
      }
      this.pending += countLines(chunk)
    }
    this.beforeLast = chunk.length > 1 ? chunk[chunk.length - 2] : this.last
    this.last = chunk[chunk.length - 1]
  }

  /**
   * The rare case of more than the bound held past the last record end: the lines from there
   * that are records on their own (not opening a value, no longer than the bound) leave the
   * reader between records after each of them, as the sequential reader reads them. Moves
   * `complete` past the last of them; says when the first line is itself over the bound
   * (`tooLong`: the bytes up to its line break, or all when it has none yet).
   */
  advanceOverLines(max: number): { moved: boolean } | { tooLong: number; ended: boolean } {
    const region = Buffer.concat(this.unfinished())
    let pos = 0
    let lines = 0
    for (let nl = region.indexOf(NL); nl !== -1; nl = region.indexOf(NL, pos)) {
      const end = nl > pos && region[nl - 1] === CR ? nl - 1 : nl
      if (end - pos > max) {
        if (pos === 0) return { tooLong: nl + 1, ended: true }
        break
      }
      if (opensValueAt(region, pos, end)) break
      lines++
      pos = nl + 1
    }
    if (lines === 0) return region.length > max && region.indexOf(NL) === -1 ? { tooLong: region.length, ended: false } : { moved: false }
    this.complete += pos
    this.lines += lines
    this.pending -= lines
    return { moved: true }
  }

  /** The pieces held past `complete`. */
  private unfinished(): Uint8Array[] {
    const out: Uint8Array[] = []
    let at = 0
    for (const part of this.parts) {
      const from = Math.max(0, this.complete - at)
      if (from < part.length) out.push(from === 0 ? part : part.subarray(from))
      at += part.length
    }
    return out
  }

  /** Drops the first `length` bytes (a line over the bound, sent without its bytes). */
  drop(length: number, lines: number): void {
    this.take(length)
    this.pending -= lines
  }

  /** Takes everything held as complete (the input's end). */
  all(): void {
    this.complete = this.size
    this.lines += this.pending
    this.pending = 0
  }

  /**
   * Takes the first `length` bytes as pieces a worker can be given. A chunk cut in two keeps
   * its memory in the block (the view ends at the cut) and leaves a copy of its rest here.
   */
  take(length: number): Uint8Array[] {
    const out: Uint8Array[] = []
    // Pieces that share memory (a gzip stream's output) are copied into one buffer of the
    // read pool (read-here.ts), which comes back when the block is done: the same memory
    // goes round, where a copy into new memory per block left the main thread holding tens
    // of megabytes of dead buffers between collections.
    let copy: Buffer | undefined
    let from = 0 // where the pieces copied since the last owned piece start in `copy`
    let copied = 0
    const copyIn = (bytes: Uint8Array) => {
      copy ??= chunkMemory(length)
      copy.set(bytes, copied)
      copied += bytes.length
    }
    const flush = () => {
      if (copy && copied > from) out.push(copy.subarray(from, copied))
      from = copied
    }
    let at = 0
    while (at < length) {
      const part = this.parts[0]!
      const n = Math.min(part.length, length - at)
      const own = !this.pooled && ownsItsMemory(part)
      if (own) flush()
      if (n === part.length) {
        if (own) out.push(part)
        else copyIn(part)
        this.parts.shift()
      } else {
        // A chunk of its own moves with the block: its rest is copied. A shared one stays as it is.
        this.parts[0] = own ? new Uint8Array(part.subarray(n)) : part.subarray(n)
        if (own) out.push(part.subarray(0, n))
        else copyIn(part.subarray(0, n))
      }
      at += n
    }
    flush()
    this.size -= length
    this.complete = Math.max(0, this.complete - length)
    return out
  }

  clear(): void {
    this.parts = []
    this.size = this.complete = this.lines = this.pending = 0
    this.last = this.beforeLast = undefined
  }

  /** The last byte held, for a record end right after what was cleared. */
  get lastByte(): number | undefined {
    return this.last
  }
}

/**
 * The blocks of an input, in order, each ending at a record end (the last one at the input's
 * end). `pooled`: copy every chunk into the read pool's memory (read-here.ts), for inputs whose
 * chunks are fresh memory each time (a gzip stream's output, a pipe): the pool's memory goes
 * round between the threads, where moving each chunk to a worker and back left every one to
 * be collected on the main thread, tens of megabytes at a time.
 */
export async function* blocksOf(input: AsyncIterable<Uint8Array | string>, maxLineBytes: number, blockBytes = BLOCK_BYTES, pooled = false): AsyncGenerator<Block> {
  let seq = 0
  let line = 1 // number of the next line to be sent
  let offset = 0 // its byte offset
  let started = false
  const held = new Held(pooled)
  // A record over the bound, being dropped: where it starts, the line breaks dropped so far, its last byte.
  let skipping: { line: number; offset: number; lines: number; last: number | undefined } | undefined

  const completeLines = (): Block => {
    const block: Block = { seq: seq++, firstLine: line, firstOffset: offset, parts: [] }
    const length = held.complete
    line += held.lines
    offset += length
    held.lines = 0
    block.parts = held.take(length)
    return block
  }
  const tooLong = (at: { line: number; offset: number; lines: number }): Block => ({ seq: seq++, firstLine: at.line, firstOffset: at.offset, parts: [], tooLong: at.lines > 1 ? 'value' : true })

  let base = 0 // input offset of the chunk's first byte
  const failure: { error?: unknown } = {}
  for await (const raw of firstThreeTogether(untilFailure(input, failure))) {
    let chunk = toBuffer(raw)
    if (!started && chunk.length > 0) {
      started = true
      // A byte order mark opening the input is skipped, as LineSplitter does.
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) {
        chunk = chunk.subarray(3)
        base = offset = 3
      }
    }
    const chunkBase = base
    base += chunk.length
    if (skipping) {
      // Dropped to its end: a single line's line break, a value's record end (see recordEnd).
      let end = -1
      if (skipping.lines === 0) end = chunk.indexOf(NL)
      else {
        for (let nl = chunk.indexOf(NL); nl !== -1 && nl < chunk.length - 1; nl = chunk.indexOf(NL, nl + 1)) {
          if (recordEnd(chunk, nl, nl === 0 ? skipping.last : undefined, undefined)) {
            end = nl
            break
          }
        }
      }
      if (end === -1) {
        skipping.lines += countLines(chunk)
        skipping.last = chunk[chunk.length - 1]
        continue
      }
      skipping.lines += countLines(chunk, 0, end + 1)
      yield tooLong(skipping)
      line = skipping.line + skipping.lines
      offset = chunkBase + end + 1
      skipping = undefined
      chunk = chunk.subarray(end + 1)
    }
    held.add(chunk)
    if (held.complete >= blockBytes) yield completeLines()
    while (held.size - held.complete > maxLineBytes) {
      // More than the bound since the last record end (rare): lines that are records on their
      // own end where the reader is between records again.
      const moved = held.advanceOverLines(maxLineBytes)
      if ('moved' in moved && moved.moved) {
        yield completeLines()
        continue
      }
      if (held.complete > 0) yield completeLines()
      if ('tooLong' in moved && moved.ended) {
        // A line over the bound, ended: reported at its place, the lines after it go on.
        yield tooLong({ line, offset, lines: 1 })
        line += 1
        offset += moved.tooLong
        held.drop(moved.tooLong, 1)
        continue
      }
      // A line over the bound not ended yet, or a value over the bound: reported at its end, unheld.
      skipping = { line, offset, lines: 'tooLong' in moved ? 0 : held.pending, last: held.lastByte }
      held.clear()
      break
    }
  }
  if ('error' in failure) {
    // A read that failed (a gzip file cut short): the whole lines read before it still go
    // out, as the sequential reader handles them, and then the failure.
    if (!skipping && held.complete > 0) yield completeLines()
    throw failure.error
  }
  if (skipping) yield tooLong(skipping)
  else if (held.size > 0) {
    held.all() // the last record, to the input's end
    yield completeLines()
  }
}

/** The memory a block's pieces live in, each once: the list to move with it to a worker. */
export const transferList = (block: Block): ArrayBuffer[] => [...new Set(block.parts.map((p) => p.buffer as ArrayBuffer)), ...(block.out ? [block.out] : [])]

/**
 * The input with its first three bytes in one chunk (or all of it, if shorter), so that a byte
 * order mark split over the first chunks is seen whole, as LineSplitter sees it.
 */
async function* firstThreeTogether(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  let head: Buffer | undefined = Buffer.alloc(0) // undefined once the first three bytes are out
  for await (const raw of input) {
    if (head === undefined) {
      yield raw
      continue
    }
    const chunk = toBuffer(raw)
    // A first chunk long enough goes on as it is, keeping its own memory.
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk])
    if (head.length >= 3) {
      yield head
      head = undefined
    }
  }
  if (head !== undefined && head.length > 0) yield head
}

/** The input's chunks up to a read failure, which ends it and is kept in `failure`. */
async function* untilFailure<T>(input: AsyncIterable<T>, failure: { error?: unknown }): AsyncGenerator<T> {
  try {
    yield* input
  } catch (error) {
    failure.error = error
  }
}
