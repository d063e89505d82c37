/**
 * Splits a byte stream into lines without `readline`: large chunks, `indexOf(0x0a)`, and a
 * line decoded once. Handles a BOM, CRLF, blank lines, a last line without a newline, and
 * lines longer than a bound (reported and skipped without buffering them).
 */
import type { Issue } from '../validate/issue.js'
import { decodeUtf8, lastDecodeInvalid } from './utf8.js'

export interface Line {
  line: number
  /** Byte offset of the line's first byte in the input. */
  offset: number
  text: string
  /** An element of a pretty-printed array (ValueSplitter), not a record of its own line. */
  element?: true
  /** The line ended in CR LF (the CR is not in `text`): rewriting it changes its bytes. */
  crlf?: true
  /** Some of its bytes were not UTF-8: each is a U+FFFD in `text` (utf8.ts). */
  invalidUtf8?: true
}
export interface LineProblem {
  line: number
  offset: number
  error: Issue
  /** The text that is not JSON, when there is one (a broken value's lines: ValueSplitter). */
  text?: string
}
export type LineItem = Line | LineProblem

/**
 * Part of a line that starts a JSON array (`[`) and is too long to hold whole (LineSplitter's
 * `readPieces`): `Python's json.dump` writes a whole array on one line. Only ValueSplitter asks
 * for pieces, and reads each before the push that made it returns: `bytes` may be a view of the
 * pushed chunk. The line's pieces come in order, the last with `last`.
 */
export interface LinePiece {
  line: number
  /** Byte offset of the line's first byte in the input. */
  offset: number
  bytes: Buffer
  last: boolean
}

/**
 * True for a LinePiece among a splitter's items (lines and line problems). A piece is the one
 * item without `text` or `error`: tested by the member every line has, which keeps the check on
 * the lines of JSON Lines a look-up V8 has seen before.
 */
export const isPiece = (item: object): item is LinePiece => (item as Line).text === undefined && (item as LineProblem).error === undefined

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024

const NL = 0x0a
const CR = 0x0d

const EMPTY = Buffer.alloc(0)

/**
 * Makes the item of one non-blank line from its bytes, `buf` from `from` to `to` (a final CR
 * already left out). `buf` may be the pushed chunk itself: keep a view only if its memory is
 * never reused.
 */
export type LineMaker<T> = (line: number, offset: number, buf: Buffer, from: number, to: number) => T

// Invalid UTF-8: one U+FFFD per bad byte, as the original tools decode (utf8.ts), and said.
const textLine: LineMaker<Line> = (line, offset, buf, from, to) => {
  const text = decodeUtf8(buf, from, to)
  return lastDecodeInvalid ? { line, offset, text, invalidUtf8: true } : { line, offset, text }
}

/**
 * Incremental splitter: push chunks, take the complete lines; `end()` flushes the last one.
 * Each line is decoded to text, unless a `make` function says otherwise (ingest keeps bytes).
 */
export class LineSplitter<T = Line> {
  private pending: Buffer[] = []
  private pendingBytes = 0
  private skipping = false // inside a line that is over the bound
  private lineNo = 0
  private offset = 0 // offset of the current line's start
  private consumed = 0 // bytes pushed so far
  private first = true
  private head: Buffer = EMPTY // the first bytes, while fewer than three have come
  /** Lines starting with `[` longer than this are given out in pieces (0: never). */
  private pieceBytes = 0
  /** Inside a line given out in pieces: its number and offset. */
  private piecing: { line: number; offset: number } | undefined

  constructor(
    private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES,
    private readonly make: LineMaker<T> = textLine as LineMaker<unknown> as LineMaker<T>,
  ) {}

  /**
   * Gives out a line that starts with `[` (after blanks) and grows past `bytes` as LinePieces
   * (in `out`, among the other items) instead of holding it whole, so a whole array on one line
   * is read with bounded memory. Only for a reader that takes pieces (ValueSplitter).
   */
  readPieces(bytes: number): void {
    this.pieceBytes = bytes
  }

  push(chunk: Buffer, out: (T | LineProblem)[]): void {
    let start = 0
    if (this.first) {
      // A byte order mark can arrive split over the first chunks: wait for three bytes.
      if (this.head.length + chunk.length < 3) {
        this.head = Buffer.concat([this.head, chunk])
        return
      }
      this.first = false
      if (this.head.length > 0) {
        chunk = Buffer.concat([this.head, chunk])
        this.head = EMPTY
      }
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = this.offset = 3
    }
    const base = this.consumed
    this.consumed += chunk.length
    for (;;) {
      const nl = chunk.indexOf(NL, start)
      if (this.piecing) {
        this.piece(chunk, start, nl === -1 ? chunk.length : nl, nl !== -1, out)
        if (nl === -1) return
      } else if (nl === -1) {
        this.hold(chunk, start, chunk.length, out)
        return
      } else if (this.pendingBytes === 0 && !this.skipping) {
        this.emit(chunk, start, nl, out)
      } else {
        this.hold(chunk, start, nl, out)
        if (this.piecing) this.piece(chunk, nl, nl, true, out)
        else this.emitPending(out)
      }
      start = nl + 1
      this.offset = base + start
    }
  }

  end(out: (T | LineProblem)[]): void {
    if (this.first && this.head.length > 0) {
      // Fewer than three bytes in all: no room for a byte order mark.
      this.first = false
      const head = this.head
      this.head = EMPTY
      this.push(head, out)
    }
    if (this.piecing) this.piece(EMPTY, 0, 0, true, out)
    else if (this.pendingBytes > 0 || this.skipping) this.emitPending(out)
  }

  /** Whether the line whose bytes so far are pending, then `chunk[from, to)`, starts with `[`. */
  private startsArray(chunk: Buffer, from: number, to: number): boolean {
    for (const part of [...this.pending, chunk.subarray(from, to)]) {
      for (let i = 0; i < part.length; i++) {
        const b = part[i]
        if (b !== 0x20 && b !== 0x09 && b !== CR) return b === 0x5b
      }
    }
    return false
  }

  /** Gives out `chunk[from, to)` as a piece of the line being read in pieces (`last`: it ends there). */
  private piece(chunk: Buffer, from: number, to: number, last: boolean, out: (T | LineProblem)[]): void {
    const { line, offset } = this.piecing!
    let end = to
    if (last && end > from && chunk[end - 1] === CR) end--
    if (end > from || last) (out as unknown as LinePiece[]).push({ line, offset, bytes: chunk.subarray(from, end), last })
    if (last) this.piecing = undefined
  }

  private hold(chunk: Buffer, from: number, to: number, out: (T | LineProblem)[]): void {
    if (this.skipping || from === to) return
    if (this.pieceBytes > 0 && this.pendingBytes + (to - from) > this.pieceBytes && this.startsArray(chunk, from, to)) {
      // Too long to hold, and an array: given out in pieces from here on (the held bytes first).
      this.lineNo++
      this.piecing = { line: this.lineNo, offset: this.offset }
      for (const part of this.pending) this.piece(part, 0, part.length, false, out)
      this.pending = []
      this.pendingBytes = 0
      this.piece(chunk, from, to, false, out)
      return
    }
    if (this.pendingBytes + (to - from) > this.maxLineBytes) {
      this.skipping = true
      this.pending = []
      this.pendingBytes = 0
      return
    }
    // Copy: the caller may reuse the chunk's memory.
    this.pending.push(Buffer.from(chunk.subarray(from, to)))
    this.pendingBytes += to - from
  }

  private emitPending(out: (T | LineProblem)[]): void {
    if (this.skipping) {
      this.lineNo++
      out.push({ line: this.lineNo, offset: this.offset, error: tooLong(this.maxLineBytes) })
      this.skipping = false
      return
    }
    const joined = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes)
    this.pending = []
    this.pendingBytes = 0
    this.emit(joined, 0, joined.length, out)
  }

  private emit(buf: Buffer, from: number, to: number, out: (T | LineProblem)[]): void {
    if (this.pieceBytes > 0 && to - from > this.maxLineBytes && this.startsArray(buf, from, to)) {
      // A whole line over the bound in one chunk: read in place, as one piece.
      this.piecing = { line: this.lineNo + 1, offset: this.offset }
      this.lineNo++
      this.piece(buf, from, to, true, out)
      return
    }
    this.lineNo++
    if (to - from > this.maxLineBytes) {
      out.push({ line: this.lineNo, offset: this.offset, error: tooLong(this.maxLineBytes) })
      return
    }
    let end = to
    const crlf = end > from && buf[end - 1] === CR
    if (crlf) end--
    if (isBlank(buf, from, end)) return
    const item = this.make(this.lineNo, this.offset, buf, from, end)
    // Said for `normalize --check`, which must name a line that normalize rewrites with LF.
    if (crlf) (item as Line).crlf = true
    out.push(item)
  }
}

function isBlank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i]
    if (b !== 0x20 && b !== 0x09 && b !== CR) return false
  }
  return true
}

/** The issue of a line longer than `max` bytes (also used by the parallel reader, cli/parallel). */
export function tooLong(max: number): Issue {
  return {
    code: 'line_too_long',
    pointer: '',
    message: `line is longer than ${max} bytes (raise --max-line-bytes to accept it)`,
    expected: `at most ${max} bytes`,
  }
}

const toBuffer = (chunk: Uint8Array | string) =>
  typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)

/** The lines of a byte stream, in order, one item per non-blank line. */
export async function* readLines(
  input: AsyncIterable<Uint8Array | string>,
  opts: { maxLineBytes?: number } = {},
): AsyncGenerator<LineItem> {
  const splitter = new LineSplitter(opts.maxLineBytes)
  const out: LineItem[] = []
  for await (const chunk of input) {
    splitter.push(toBuffer(chunk), out)
    if (out.length > 0) {
      yield* out
      out.length = 0
    }
  }
  splitter.end(out)
  yield* out
}

export { toBuffer }
