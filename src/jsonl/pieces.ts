/**
 * A top-level JSON array written on one line (`json.dump` of a list: Python's default, no line
 * breaks), read as it comes: each element is a record, as in a pretty-printed array, and only
 * the element being read is held (up to the record bound), never the line. LineSplitter hands
 * such a line over in pieces (LinePiece) once it is too long to hold; this reads the pieces.
 *
 * The JSON structure is read from the bytes themselves: every character that shapes JSON is
 * ASCII, and no byte of a multi-byte UTF-8 character is, so the scanner reads each piece as
 * Latin-1 (one character per byte, positions are byte offsets) and an element's bytes are
 * decoded once, whole, as any line is (utf8.ts). A word (`true`, a number) cut by a piece's end
 * is read with the next piece.
 *
 * Other values on the same line after the array (`[…] {…}`) are records of their own, as on any
 * line. A line that stops being JSON is reported once, at the element it broke in, and the rest
 * of the line is skipped: inside one line there is no line start to resume reading at.
 */
import type { Issue } from '../validate/issue.js'
import type { Line, LinePiece, LineProblem } from './lines.js'
import { BROKEN, ELEMENT_END, ELEMENT_START, END, JsonScanner, MORE } from './scanner.js'
import { decodeUtf8 } from './utf8.js'
import { brokenIssue, type RecordMaker, tooLarge } from './values.js'

/** Bytes of `true`, `false`, `null` and numbers (a word may not be cut). */
const isWordByte = (b: number) => (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a) || b === 0x2d || b === 0x2b || b === 0x2e
const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a

/** How much of a broken record's text a problem keeps. */
const SHOWN = 4096

export class PieceReader<T extends Line> {
  private readonly scanner = new JsonScanner(true)
  /** The line being read: its number and offset; -1 between lines. */
  private line = -1
  private offset = 0
  /** Position in the line of the next byte to scan. */
  private pos = 0
  /** Word bytes at the end of the last piece, scanned with the next one. */
  private carry: Buffer | undefined
  /** Between top-level values of the line. */
  private between = true
  /** Inside the line's top-level array (its elements are the records). */
  private inArray = false
  /** The record being read: where it starts in the line (-1: none), its bytes so far. */
  private start = -1
  private element = false
  private parts: Buffer[] = []
  private size = 0
  private dropping = false
  /** The line broke: the rest of it is skipped. */
  private skipping = false

  constructor(
    private readonly maxLineBytes: number,
    private readonly join: RecordMaker<T>,
  ) {}

  /** Reads one piece of the line; its records and problems go to `out`. */
  piece(p: LinePiece, out: (T | LineProblem)[]): void {
    if (this.line !== p.line) this.begin(p)
    if (!this.skipping) {
      let bytes = p.bytes
      let base = this.pos
      if (this.carry) {
        bytes = Buffer.concat([this.carry, bytes])
        base -= this.carry.length
        this.carry = undefined
      }
      let end = bytes.length
      if (!p.last) {
        while (end > 0 && isWordByte(bytes[end - 1]!)) end--
        if (end < bytes.length) this.carry = Buffer.from(bytes.subarray(end))
      }
      this.scan(bytes, end, base, out)
      this.pos = base + end + (this.carry?.length ?? 0)
    }
    if (p.last) this.finish(out)
  }

  private begin(p: LinePiece): void {
    this.scanner.reset()
    this.line = p.line
    this.offset = p.offset
    this.pos = 0
    this.carry = undefined
    this.between = true
    this.inArray = false
    this.start = -1
    this.skipping = false
  }

  /** Scans `bytes[0, end)`, the line's bytes from `base`. */
  private scan(bytes: Buffer, end: number, base: number, out: (T | LineProblem)[]): void {
    const text = bytes.toString('latin1', 0, end)
    let at = 0
    let from = this.start === -1 ? -1 : 0 // where the record's bytes in this piece start
    while (at < end) {
      if (this.between) {
        while (at < end && isBlank(text.charCodeAt(at))) at++
        if (at === end) break
        this.between = false
        this.inArray = text.charCodeAt(at) === 0x5b
        if (!this.inArray) from = this.open(base + at, false, at)
      }
      const event = this.scanner.scan(text, at)
      at = this.scanner.at
      if (event === MORE) break
      if (event === ELEMENT_START) {
        from = this.open(base + at, true, at)
        continue
      }
      if (event === ELEMENT_END || (event === END && !this.inArray)) {
        this.close(bytes, from, at, out)
        from = -1
      }
      if (event === END) {
        this.scanner.reset()
        this.between = true
        this.inArray = false
        continue
      }
      if (event === BROKEN) {
        this.broken(bytes, from, at, this.scanner.reason, out)
        return
      }
    }
    if (from !== -1) this.hold(bytes, from, end, out)
  }

  /** A record starts at `position` of the line (`at` in the piece): returns `at`. */
  private open(position: number, element: boolean, at: number): number {
    this.start = position
    this.element = element
    this.parts = []
    this.size = 0
    this.dropping = false
    return at
  }

  /** Keeps `bytes[from, to)` of the record being read (copied: the piece is gone after this push). */
  private hold(bytes: Buffer, from: number, to: number, out: (T | LineProblem)[]): void {
    if (this.dropping || to <= from) return
    if (this.size + (to - from) > this.maxLineBytes) {
      // Over the bound: said once, then read to its end without being held.
      out.push({ line: this.line, offset: this.offset + this.start, error: tooLarge(this.maxLineBytes, this.line) })
      this.dropping = true
      this.parts = []
      return
    }
    this.parts.push(Buffer.from(bytes.subarray(from, to)))
    this.size += to - from
  }

  /** The record being read ends at `to` of this piece. */
  private close(bytes: Buffer, from: number, to: number, out: (T | LineProblem)[]): void {
    const start = this.start
    this.start = -1
    if (this.dropping) return
    let text: string
    if (this.parts.length === 0 && to - from <= this.maxLineBytes) text = decodeUtf8(bytes, from, to)
    else {
      this.start = start
      this.hold(bytes, from, to, out)
      this.start = -1
      if (this.dropping) return
      const whole = Buffer.concat(this.parts, this.size)
      text = decodeUtf8(whole, 0, whole.length)
    }
    this.parts = []
    out.push(this.join(this.line, this.offset + start, text, this.element))
  }

  /** The line is not JSON at `at` of this piece: reported at the record it broke in; the rest of the line is skipped. */
  private broken(bytes: Buffer, from: number, at: number, reason: string, out: (T | LineProblem)[]): void {
    this.skipping = true
    this.carry = undefined
    const where = `; the rest of line ${this.line} is skipped`
    if (this.start === -1) {
      const error: Issue = { code: 'bad_json', pointer: '', message: `not valid JSON: ${reason} (between two elements of the array${where})` }
      out.push({ line: this.line, offset: this.offset + this.pos, error })
      return
    }
    if (from !== -1) this.hold(bytes, from, Math.min(at + 1, bytes.length), out)
    const text = this.dropping ? '' : decodeUtf8(Buffer.concat(this.parts, this.size), 0, this.size)
    const issue = this.dropping ? tooLarge(this.maxLineBytes, this.line) : brokenIssue(text, reason, 0)
    const problem: LineProblem = { line: this.line, offset: this.offset + this.start, error: { ...issue, message: `${issue.message}${where}` } }
    if (text !== '') problem.text = text.length > SHOWN ? text.slice(0, SHOWN) : text
    out.push(problem)
    this.start = -1
    this.parts = []
  }

  /** The line ended. */
  private finish(out: (T | LineProblem)[]): void {
    if (!this.skipping && this.scanner.lineEnd(0) === BROKEN) this.broken(Buffer.alloc(0), -1, 0, this.scanner.reason, out)
    else if (!this.skipping && !this.between) {
      // The line ends inside the array or one of its elements (a file cut short, or an array
      // that goes on over further lines, which are then read as lines of their own).
      if (this.start === -1) out.push({ line: this.line, offset: this.offset, error: { code: 'bad_json', pointer: '', message: `not valid JSON: the array has no closing bracket on line ${this.line} (truncated?)` } })
      else this.broken(Buffer.alloc(0), -1, 0, 'the line ends inside it', out)
    }
    this.line = -1
    this.parts = []
    this.carry = undefined
  }
}
