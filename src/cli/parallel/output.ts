/**
 * A block's output, per stream, built as the lines come. stdout and the third output are
 * encoded to UTF-8 line by line into one growing buffer (a worker encodes them where the work
 * is, and the bytes are moved, not copied, to the main thread). Encoding each line at once
 * lets its string die young: a block's output held as strings until the block's end made
 * every scavenge copy megabytes of live text, and scavenges were most of the cost a second
 * thread added. stderr stays text (convert fills event numbers into it on the main thread).
 */
import type { Edit } from '../../normalize/pattern.js'

/**
 * Output memory whose bytes have been written, kept for later blocks' output. Writing into
 * memory already in use costs nothing more, where a new buffer of a block's size is fresh
 * pages from the kernel (a fault and zeroing per page) and external memory the GC accounts:
 * that was most of the cost of copying lines out (100 MB: ~125 ms of the two threads' time,
 * ~50 ms into reused memory). The main thread gives back what it has written; it hands some
 * of it on to the workers with their blocks (`Block.out`), and each keeps what it is given.
 */
const spares: ArrayBuffer[] = []
/** Spares kept per thread, at most (a few blocks' output each). */
const MAX_SPARES = 8
/** Smaller memory is not worth keeping (the first line of a block gets 4 KiB). */
const MIN_SPARE = 64 * 1024

/**
 * Keeps `memory` for later output. Only for memory nothing else refers to: bytes taken from a
 * ByteLines whose writing has finished (the write's callback), or memory sent back for that.
 */
export function giveBack(memory: ArrayBuffer): void {
  if (spares.length < MAX_SPARES && memory.byteLength >= MIN_SPARE) spares.push(memory)
}

/** A kept memory to hand to a worker with a block (undefined when none is kept). */
export const takeSpare = (): ArrayBuffer | undefined => spares.pop()

/** A kept memory of at least `size` bytes, taken out of the spares. */
function spareOf(size: number): Buffer | undefined {
  for (let i = spares.length - 1; i >= 0; i--) {
    const memory = spares[i]!
    if (memory.byteLength < size) continue
    spares.splice(i, 1)
    return Buffer.from(memory)
  }
  return undefined
}

/** Where a job puts the lines of one output stream. */
export interface LineList {
  push(line: string): unknown
  /**
   * Pushes the line that is `text` with `edits` applied, given the bytes `text` was decoded
   * from (valid UTF-8, so they are its encoding): a list that holds bytes copies them around
   * the edits instead of encoding the whole line again.
   */
  pushFrom?(bytes: Uint8Array, text: string, edits: readonly Edit[]): unknown
}

/** Lines encoded as they come, a newline after each, into memory of its own. */
export class ByteLines implements LineList {
  private buf: Buffer | undefined
  private at = 0

  /** `expected`: bytes the lines will likely take (a block's input size for its documents). */
  constructor(private readonly expected = 0) {}

  push(line: string): void {
    // A UTF-16 unit takes at most 3 bytes: room for that needs no measuring.
    const room = this.buf ? this.buf.length - this.at : 0
    if (room < line.length * 3 + 1) {
      const need = Buffer.byteLength(line) + 1
      if (room < need) this.grow(need)
    }
    const buf = this.buf!
    this.at += buf.write(line, this.at)
    buf[this.at++] = 0x0a
  }

  pushFrom(bytes: Uint8Array, text: string, edits: readonly Edit[]): void {
    let need = bytes.length + 1
    for (const edit of edits) need += edit.text.length * 3
    if (!this.buf || this.buf.length - this.at < need) this.grow(need)
    const buf = this.buf!
    // Only ASCII text has as many bytes as UTF-16 units: positions in it are byte positions.
    const ascii = bytes.length === text.length
    let from = 0 // bytes of the input copied or skipped so far
    let unit = 0 // the same in the text's UTF-16 units
    for (let i = 0; i < edits.length; i++) {
      const { start, end, text: replacement } = edits[i]!
      const kept = ascii ? start - unit : Buffer.byteLength(text.slice(unit, start))
      buf.set(bytes.subarray(from, from + kept), this.at)
      this.at += kept
      from += kept + (ascii ? end - start : Buffer.byteLength(text.slice(start, end)))
      this.at = writeShort(buf, this.at, replacement)
      unit = end
    }
    buf.set(bytes.subarray(from), this.at)
    this.at += bytes.length - from
    buf[this.at++] = 0x0a
  }

  /** The bytes written (null for none), in memory that can be moved to another thread. */
  take(): Uint8Array | null {
    if (!this.buf || this.at === 0) return null
    const out = this.buf.subarray(0, this.at)
    this.buf = undefined
    this.at = 0
    return out
  }

  private grow(need: number): void {
    // A first line gets a small buffer (validate writes a line for some blocks only), or kept
    // memory with room for what is expected; a second one, room for what is expected.
    // allocUnsafeSlow: memory of its own, never a slice of the shared pool (which cannot be
    // moved).
    const size = Math.max(this.buf ? Math.max(this.expected, 2 * this.buf.length) : 4096, this.at + need)
    // New memory large enough to be kept gets an eighth more, so that it fits the next blocks
    // (which differ in size by a few lines) when it comes back.
    const next = spareOf(Math.max(size, this.expected)) ?? Buffer.allocUnsafeSlow(size >= MIN_SPARE ? size + (size >> 3) : size)
    if (this.buf) {
      this.buf.copy(next, 0, 0, this.at)
      // The smaller memory goes round too (its own, nothing else refers to it).
      giveBack(this.buf.buffer as ArrayBuffer)
    }
    this.buf = next
  }
}

/** Writes `text` at `at`, returns the end: short ASCII text (an edit's) byte by byte, else encoded. */
function writeShort(buf: Buffer, at: number, text: string): number {
  if (text.length <= 32) {
    let i = 0
    for (; i < text.length; i++) {
      const unit = text.charCodeAt(i)
      if (unit >= 0x80) break
      buf[at + i] = unit
    }
    if (i === text.length) return at + i
  }
  return at + buf.write(text, at) // from the start again: the bytes written above are the same
}

/** Lines kept as text, joined by `\n` when taken. */
export class TextLines implements LineList {
  private readonly lines: string[] = []

  push(line: string): void {
    this.lines.push(line)
  }

  take(): string | null {
    return this.lines.length === 0 ? null : this.lines.join('\n')
  }
}
