/**
 * Cutting an input into blocks of whole lines for the worker threads, counting lines as it
 * goes so that each block knows the number of its first line. A line longer than the bound
 * is not held: it becomes a `tooLong` block without bytes, as the sequential reader reports it.
 */
import { toBuffer } from '../../jsonl/lines.js'
import type { Block } from './types.js'

/** Bytes per block: large enough that messaging costs nothing next to the work. */
export const BLOCK_BYTES = 1 << 20

const NL = 0x0a

/** Number of `\n` bytes in `bytes`. */
function countLines(bytes: Buffer): number {
  let n = 0
  for (let i = bytes.indexOf(NL); i !== -1; i = bytes.indexOf(NL, i + 1)) n++
  return n
}

/** Bytes held, as a list of slices of the chunks read: complete lines, then an unfinished one. */
class Held {
  parts: Buffer[] = []
  size = 0
  /** Bytes up to and including the last `\n` held, and how many lines they hold. */
  complete = 0
  lines = 0

  add(chunk: Buffer): void {
    const last = chunk.lastIndexOf(NL)
    this.parts.push(chunk)
    this.size += chunk.length
    if (last !== -1) {
      this.complete = this.size - (chunk.length - last - 1)
      this.lines += countLines(chunk)
    }
  }

  /** Moves the first `length` bytes into a fresh buffer (transferable to a worker). */
  takeBytes(length: number): ArrayBuffer {
    const out = new Uint8Array(length)
    let at = 0
    while (at < length) {
      const part = this.parts[0]!
      const n = Math.min(part.length, length - at)
      out.set(part.subarray(0, n), at)
      at += n
      if (n === part.length) this.parts.shift()
      else this.parts[0] = part.subarray(n)
    }
    this.size -= length
    this.complete = Math.max(0, this.complete - length)
    return out.buffer
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
    const block: Block = { seq: seq++, firstLine: line, firstOffset: offset, bytes: new ArrayBuffer(0) }
    const length = held.complete
    line += held.lines
    offset += length
    held.lines = 0
    block.bytes = held.takeBytes(length)
    return block
  }
  const tooLong = (at: { line: number; offset: number }): Block => ({ seq: seq++, firstLine: at.line, firstOffset: at.offset, bytes: new ArrayBuffer(0), tooLong: true })

  let base = 0 // input offset of the chunk's first byte
  for await (const raw of firstThreeTogether(input)) {
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
  if (skipping) yield tooLong(skipping)
  else if (held.size > 0) {
    held.complete = held.size // the last line, without a `\n` after it
    yield completeLines()
  }
}

/**
 * The input with its first three bytes in one chunk (or all of it, if shorter), so that a byte
 * order mark split over the first chunks is seen whole, as LineSplitter sees it.
 */
async function* firstThreeTogether(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  let head: Buffer | undefined = Buffer.alloc(0)
  for await (const raw of input) {
    if (head === undefined) {
      yield raw
      continue
    }
    head = Buffer.concat([head, toBuffer(raw)])
    if (head.length >= 3) {
      yield head
      head = undefined
    }
  }
  if (head !== undefined && head.length > 0) yield head
}
