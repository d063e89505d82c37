/**
 * Cutting an input into blocks of whole lines for the worker threads, counting lines as it
 * goes so that each block knows the number of its first line. A line longer than the bound
 * is not held: it becomes a `tooLong` block without bytes, as the sequential reader reports it.
 *
 * A block is a list of pieces of the input. A chunk that owns its whole memory (a file read
 * gives one per 1 MiB read) goes into a block as it is and is later moved to the worker, not
 * copied; only the unfinished line at a block's end is copied, to open the next block. Chunks
 * that share memory (a pooled buffer, a view into a larger one) are copied.
 */
import { toBuffer } from '../../jsonl/lines.js'
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

/** Number of `\n` bytes in `bytes`. */
function countLines(bytes: Uint8Array): number {
  let n = 0
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) n++
  return n
}

/** Whether `bytes` is the whole of its memory, so that moving that memory moves nothing else. */
const ownsItsMemory = (bytes: Uint8Array) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength

/** `bytes` in memory of its own: the same view when it already is, else a copy. */
const owned = (bytes: Uint8Array): Uint8Array => (ownsItsMemory(bytes) ? bytes : new Uint8Array(bytes))

/** Bytes held, as a list of chunks: complete lines, then an unfinished one. */
class Held {
  parts: Uint8Array[] = []
  size = 0
  /** Bytes up to and including the last `\n` held, and how many lines they hold. */
  complete = 0
  lines = 0

  add(chunk: Uint8Array): void {
    const last = chunk.lastIndexOf(NL)
    this.parts.push(chunk)
    this.size += chunk.length
    if (last !== -1) {
      this.complete = this.size - (chunk.length - last - 1)
      this.lines += countLines(chunk)
    }
  }

  /**
   * Takes the first `length` bytes as pieces a worker can be given. A chunk cut in two keeps
   * its memory in the block (the view ends at the cut) and leaves a copy of its rest here.
   */
  take(length: number): Uint8Array[] {
    const out: Uint8Array[] = []
    let at = 0
    while (at < length) {
      const part = this.parts[0]!
      const n = Math.min(part.length, length - at)
      if (n === part.length) {
        out.push(owned(part))
        this.parts.shift()
      } else {
        this.parts[0] = new Uint8Array(part.subarray(n))
        out.push(ownsItsMemory(part) ? part.subarray(0, n) : new Uint8Array(part.subarray(0, n)))
      }
      at += n
    }
    this.size -= length
    this.complete = Math.max(0, this.complete - length)
    return out
  }

  clear(): void {
    this.parts = []
    this.size = this.complete = this.lines = 0
  }
}

/** The blocks of an input, in order, each ending at a line end (the last one at the input's end). */
export async function* blocksOf(input: AsyncIterable<Uint8Array | string>, maxLineBytes: number, blockBytes = BLOCK_BYTES): AsyncGenerator<Block> {
  let seq = 0
  let line = 1 // number of the next line to be sent
  let offset = 0 // its byte offset
  let started = false
  const held = new Held()
  let skipping: { line: number; offset: number } | undefined // a line over the bound, being dropped

  const completeLines = (): Block => {
    const block: Block = { seq: seq++, firstLine: line, firstOffset: offset, parts: [] }
    const length = held.complete
    line += held.lines
    offset += length
    held.lines = 0
    block.parts = held.take(length)
    return block
  }
  const tooLong = (at: { line: number; offset: number }): Block => ({ seq: seq++, firstLine: at.line, firstOffset: at.offset, parts: [], tooLong: true })

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
      const nl = chunk.indexOf(NL)
      if (nl === -1) continue
      yield tooLong(skipping)
      line = skipping.line + 1
      offset = chunkBase + nl + 1
      skipping = undefined
      chunk = chunk.subarray(nl + 1)
    }
    held.add(chunk)
    if (held.complete >= blockBytes) yield completeLines()
    if (held.size - held.complete > maxLineBytes) {
      // The unfinished line is over the bound whatever follows: report it at its end, unheld.
      if (held.complete > 0) yield completeLines()
      skipping = { line, offset }
      held.clear()
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
    held.complete = held.size // the last line, without a `\n` after it
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
