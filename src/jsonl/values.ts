/**
 * The one reader of JSON text every command uses: a stream of JSON values separated by
 * whitespace, as `jq` reads it: JSON Lines, one document pretty-printed over many lines, a
 * stream of such documents, a pretty-printed array (each element its own record), or any mix
 * of them. Built on LineSplitter, so plain JSON Lines costs one look at each line's first and
 * last character: a line that opens `{` or `[` and does not close it is the only kind that
 * goes through the scanner (scanner.ts).
 *
 * Every record keeps the number and byte offset of the line where it starts. Memory is bounded:
 * a value spread over lines is held up to `maxLineBytes` (the same bound as a line), past which
 * it is reported and skipped.
 *
 * A value that is not JSON (a JSON Lines record cut short, a damaged document) is reported at
 * its first line, and reading resumes at the next line that starts a value at the left margin
 * (no indentation: where encoders start a top-level value), or, inside a pretty-printed array,
 * at the next line that opens an element at the elements' indentation. So one damaged record
 * costs that record only, and a record cut short cannot swallow the next.
 */
import type { Issue } from '../validate/issue.js'
import { isPiece, type Line, type LineMaker, type LinePiece, type LineProblem, LineSplitter, tooLong } from './lines.js'
import { badJson } from './parse.js'
import { tooDeep } from './depth.js'
import { PieceReader } from './pieces.js'
import { decodeUtf8 } from './utf8.js'
import { BROKEN, ELEMENT_END, ELEMENT_START, END, JsonScanner, MORE, TOO_DEEP } from './scanner.js'

/** Makes the item of a record that is not one whole line (the text of several lines joined, or part of one). */
export type RecordMaker<T extends Line> = (line: number, offset: number, text: string, element: boolean) => T

const textRecord: RecordMaker<Line> = (line, offset, text, element) => (element ? { line, offset, text, element: true } : { line, offset, text })

export interface ValueOptions {
  /**
   * A top-level array gives one record per element (default), whether it is spread over lines
   * or written on one. False: the whole array is one record (`validate` judges a file as JSON
   * Schema validators do).
   */
  elements?: boolean
  /**
   * With elements: a line holding an array is held whole up to this many bytes; a longer one is
   * read as it comes, an element at a time (pieces.ts). Default PIECE_BYTES.
   */
  pieceBytes?: number
}

/** How long a line holding an array may grow before it is read in pieces (ValueOptions.pieceBytes). */
export const PIECE_BYTES = 1024 * 1024

/** Lines looked at, at most, to learn an array's elements' indentation after its first element broke. */
const WINDOW_LINES = 1024

const IDLE = 0 // between values: lines pass through
const SCAN = 1 // inside a value spread over lines
const SKIP = 2 // after a broken value, until a line where reading can resume

/** Where reading resumes after a broken value. */
const TOP = 0 // at a line starting a value at the left margin
const ELEMENT = 1 // at the next element of the array (or its end, or a top-level value)
const WHOLE = 2 // after the `]` closing an array read whole (elements: false)

const isBlankCode = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d

/** Index of the first non-blank character of `text`, or its length. */
function firstNonBlank(text: string): number {
  let i = 0
  while (i < text.length && isBlankCode(text.charCodeAt(i))) i++
  return i
}

/** Index of the last non-blank character of `text`, or -1. */
function lastNonBlank(text: string): number {
  let i = text.length - 1
  while (i >= 0 && isBlankCode(text.charCodeAt(i))) i--
  return i
}

/**
 * Whether a line opens a value it does not close: it starts (after blanks) with `{` or `[` and
 * does not end with `}` or `]`. Such a line is scanned; any other line is a record on its own.
 * With `elements`, a line starting with `[` is always scanned: the array's elements are the
 * records, whether it closes on that line or not.
 */
function opensValue(text: string, elements: boolean): number {
  const first = firstNonBlank(text)
  const c = text.charCodeAt(first)
  if (c !== 0x7b && c !== 0x5b) return -1
  if (c === 0x5b && elements) return first
  const e = text.charCodeAt(lastNonBlank(text))
  return first === text.length - 1 || (e !== 0x7d && e !== 0x5d) ? first : -1
}

/** A line where a top-level value may start: not indented, and not closing or continuing one. */
function startsAtMargin(text: string): boolean {
  const c = text.charCodeAt(0)
  return !Number.isNaN(c) && !isBlankCode(c) && c !== 0x7d && c !== 0x5d && c !== 0x2c && c !== 0x3a
}

/** A line opening an element at `indent`: the indentation, then `{` or `[`. */
function opensElementAt(text: string, indent: string): boolean {
  if (!text.startsWith(indent)) return false
  const c = text.charCodeAt(indent.length)
  return c === 0x7b || c === 0x5b
}

/**
 * Why a broken value is not JSON: JSON.parse's own words, or the scanner's when it has none;
 * `below` is how many lines after the record's first line it broke (0: on it).
 */
export function brokenIssue(text: string, reason: string, below: number): Issue {
  const where = below === 1 ? ' (on the line after this one)' : below > 1 ? ` (${below} lines further down)` : ''
  try {
    JSON.parse(text)
  } catch (error) {
    const issue = badJson(error)
    return { ...issue, message: issue.message + where }
  }
  return { code: 'bad_json', pointer: '', message: `not valid JSON: ${reason}${where}` }
}

/** A value spread over lines that is over the bound. */
export function tooLarge(max: number, line: number): Issue {
  return { ...tooLong(max), message: `the JSON value starting at line ${line} is longer than ${max} bytes (raise --max-line-bytes to accept it)` }
}

/** A broken value being skipped: where it started, what it held (for the message). */
interface Broken {
  line: number
  offset: number
  /** Its text so far (while under the bound). */
  parts: string[]
  chars: number
  reason: string
  /** The line where the scanner found it broken. */
  at: number
  resume: number
  /** Already reported (a value over the bound, a break between elements). */
  reported?: boolean
  /** The line it is named at, when not its first (an array read whole: the element it broke in). */
  named?: number
}

/**
 * Incremental reader: push chunks, take the records (the lines' items, or items made by `join`
 * for the others, and LineProblems); end() flushes. Items of whole lines are the line
 * splitter's own (with their bytes, for `--jobs` blocks).
 */
export class ValueSplitter<T extends Line = Line> {
  private readonly lines: LineSplitter<T>
  private readonly scanner: JsonScanner
  private readonly items: (T | LineProblem)[] = []
  private mode = IDLE
  /** Lines of the value being read, from the one it starts on (or, in an array, the current element's). */
  private held: T[] = []
  private heldChars = 0
  /** Where the value (or element) starts in held[0]; -1 between elements. */
  private startCol = 0
  /** Over the bound: the value is read to its end without being held. */
  private dropping = false
  /** Inside a top-level array read element by element. */
  private inArray = false
  private indent: string | undefined
  private broken: Broken | undefined

  constructor(
    private readonly maxLineBytes: number,
    make?: LineMaker<T>,
    private readonly join: RecordMaker<T> = textRecord as RecordMaker<Line> as RecordMaker<T>,
    options: ValueOptions = {},
  ) {
    this.lines = new LineSplitter<T>(maxLineBytes, make)
    this.make = make
    this.elements = options.elements !== false
    // Elements are followed in either mode: a problem is named at the element it is in.
    this.scanner = new JsonScanner(true)
    if (this.elements) {
      this.lines.readPieces(options.pieceBytes ?? PIECE_BYTES)
      this.pieces = new PieceReader(maxLineBytes, join)
    }
  }

  private readonly make: LineMaker<T> | undefined
  /** Reads a line holding an array in pieces, when elements are wanted. */
  private readonly pieces: PieceReader<T> | undefined
  /**
   * The line being given in pieces: read as it comes (`stream`, between values), or joined
   * back into a line (inside a value being read or skipped, where it is one of its lines).
   */
  private piecing: { stream: true } | { stream: false; parts: Buffer[]; size: number; over: boolean } | undefined

  private readonly elements: boolean
  /** Lines after a broken element while the elements' indentation is not known yet (see settleIndent). */
  private window: T[] = []

  push(chunk: Buffer, out: (T | LineProblem)[]): void {
    if (this.mode === IDLE) {
      // The common case, JSON Lines: the lines go straight out; the first that opens a value
      // (and those after it) are taken back and read one by one.
      const from = out.length
      this.lines.push(chunk, out)
      for (let i = from; i < out.length; i++) {
        const item = out[i]!
        if ('error' in item || (item.text !== undefined && opensValue(item.text, this.elements) === -1)) continue // (a piece has no text)
        for (const rest of out.splice(i)) this.line(rest, out)
        return
      }
      return
    }
    this.lines.push(chunk, this.items)
    if (this.items.length === 0) return
    for (const item of this.items) this.line(item, out)
    this.items.length = 0
  }

  end(out: (T | LineProblem)[]): void {
    this.lines.end(this.items)
    for (const item of this.items) this.line(item, out)
    this.items.length = 0
    this.finish(out)
  }

  /** One line (or line problem, or piece of a long line) of the input. */
  private line(item: T | LineProblem, out: (T | LineProblem)[]): void {
    if (isPiece(item)) {
      this.piece(item, out)
      return
    }
    if ('error' in item) {
      if (this.mode === SCAN && !(this.inArray && this.startCol === -1)) {
        // A line over the bound inside a value: the value is over the bound. Said once, at its
        // start; its lines are skipped up to one where reading resumes.
        const first = this.held[0]
        if (!this.dropping && first) out.push({ line: first.line, offset: this.offsetOf(first, this.startCol), error: tooLarge(this.maxLineBytes, first.line) })
        this.broken = { ...this.brokenFrom([], 0, '', item.line, this.inArray ? ELEMENT : this.whole ? WHOLE : TOP), reported: true }
        this.held = []
        this.dropping = false
        this.mode = SKIP
        return
      }
      // Else a line over the bound is a record of its own, reported at its place (what was
      // being skipped before it is reported first; lines held to learn an array's indentation
      // are read first).
      if (this.mode === SKIP && this.window.length > 0) {
        this.settleIndent(out)
        this.line(item, out)
        return
      }
      if (this.mode === SKIP) this.flushBroken(out)
      this.reset()
      out.push(item)
      return
    }
    if (this.mode === IDLE) {
      const at = opensValue(item.text, this.elements)
      if (at === -1) {
        out.push(item)
        return
      }
      this.scanner.reset()
      this.indent = undefined
      this.start(item, at)
      this.opening(item, at)
      this.run(item, at, out)
      return
    }
    if (this.mode === SCAN) {
      this.hold(item)
      this.run(item, 0, out)
      return
    }
    // SKIP: lines of the broken value, until one where reading can resume.
    const broken = this.broken!
    if (broken.resume === ELEMENT && this.indent === undefined) {
      // The array's elements' indentation is not known yet: look at the lines to come.
      if (this.resumesAt(item.text, ELEMENT)) this.settleIndent(out, item)
      else if (this.window.push(item) >= WINDOW_LINES) this.settleIndent(out)
      return
    }
    if (this.resumesAt(item.text, broken.resume)) {
      this.flushBroken(out)
      this.resume(item, out, broken.resume)
      return
    }
    if (broken.chars <= this.maxLineBytes) {
      broken.parts.push(item.text)
      broken.chars += item.text.length + 1
    }
  }

  /** A piece of a line too long to hold that starts with `[` (LinePiece). */
  private piece(p: LinePiece, out: (T | LineProblem)[]): void {
    // Between values, the line is an array of records; inside one, a line of it.
    const state = (this.piecing ??= this.mode === IDLE ? { stream: true } : { stream: false, parts: [], size: 0, over: false })
    if (state.stream) this.pieces!.piece(p, out)
    else if (!state.over) {
      state.over = state.size + p.bytes.length > this.maxLineBytes
      if (state.over) state.parts = []
      else {
        state.parts.push(Buffer.from(p.bytes))
        state.size += p.bytes.length
      }
    }
    if (!p.last) return
    this.piecing = undefined
    if (state.stream) return
    if (state.over) {
      this.line({ line: p.line, offset: p.offset, error: tooLong(this.maxLineBytes) }, out)
      return
    }
    const whole = Buffer.concat(state.parts, state.size)
    this.line(this.make ? this.make(p.line, p.offset, whole, 0, whole.length) : ({ line: p.line, offset: p.offset, text: decodeUtf8(whole, 0, whole.length) } as T), out)
  }

  /** Back to reading lines, outside any value. */
  private reset(): void {
    this.mode = IDLE
    this.inArray = false
    this.held = []
    this.heldChars = 0
    this.dropping = false
    this.broken = undefined
    this.window = []
    this.whole = false
    this.scanner.reset()
  }

  /**
   * A value starting with `[` is an array, read element by element (between elements from its
   * start), or whole when elements are not wanted (`whole`).
   */
  private opening(item: T, col: number): void {
    this.whole = false
    if (item.text.charCodeAt(col) !== 0x5b) return
    this.array = { line: item.line, col, elements: false, element: item.line }
    if (!this.elements) {
      this.whole = true
      return
    }
    this.inArray = true
    this.startCol = -1
  }

  /** The array being read: where its `[` is, whether an element of it has started, the line of the current one. */
  private array = { line: 0, col: 0, elements: false, element: 0 }
  /** Reading a top-level array as one record (elements: false). */
  private whole = false

  /** Starts holding a value that begins at column `col` of `item`. */
  private start(item: T, col: number): void {
    this.mode = SCAN
    this.held = [item]
    this.heldChars = item.text.length - col
    this.startCol = col
    this.dropping = false
  }

  private hold(item: T): void {
    if (this.dropping) return
    this.held.push(item)
    this.heldChars += item.text.length + 1
  }

  /** Scans `item` (the last line held) from `from`, emitting what completes. */
  private run(item: T, from: number, out: (T | LineProblem)[]): void {
    const text = item.text
    let at = from
    for (;;) {
      const event = this.scanner.scan(text, at)
      at = this.scanner.at
      if (event === MORE) break
      if (event === BROKEN) {
        this.breakHere(out, item.line, this.scanner.reason, at)
        return
      }
      if (event === ELEMENT_START && this.whole) {
        // Held whole: only where the element starts is noted (a problem is named there).
        this.array.elements = true
        this.array.element = item.line
        continue
      }
      if (event === ELEMENT_END && this.whole) continue
      if (event === ELEMENT_START) {
        this.inArray = true
        this.array.elements = true
        if (this.indent === undefined) this.indent = firstNonBlank(text) === at ? text.slice(0, at) : ''
        this.held = [item]
        this.heldChars = text.length - at
        this.startCol = at
        this.dropping = false
        continue // the scanner reads the element's first character on the next call
      }
      if (event === ELEMENT_END) {
        if (!this.dropping) out.push(this.record(at, true))
        this.dropping = false
        this.held = [item]
        this.heldChars = 0
        this.startCol = -1
        continue
      }
      // END: a top-level value (or the top-level array, whose elements went out) is complete.
      if (!this.dropping && !this.inArray) out.push(this.record(at, false))
      this.inArray = false
      this.whole = false
      this.scanner.reset()
      const next = at + firstNonBlank(text.slice(at))
      if (next >= text.length) {
        this.mode = IDLE
        this.held = []
        this.dropping = false
        return
      }
      // Another value on the same line.
      this.indent = undefined
      this.start(item, next)
      this.opening(item, next)
      at = next
    }
    if (this.scanner.lineEnd(text.length) === BROKEN) {
      this.breakHere(out, item.line, this.scanner.reason, text.length)
      return
    }
    if (!this.dropping && this.heldChars > this.maxLineBytes && this.startCol !== -1) {
      // Over the bound: said once, then the value is read to its end without being held.
      const first = this.held[0]!
      out.push({ line: first.line, offset: this.offsetOf(first, this.startCol), error: tooLarge(this.maxLineBytes, first.line) })
      this.dropping = true
      this.held = []
    }
  }

  /** The record from (held[0], startCol) to (the last held line, end). */
  private record(end: number, element: boolean): T {
    const held = this.held
    const first = held[0]!
    const last = held[held.length - 1]!
    if (held.length === 1 && this.startCol === 0 && end === first.text.length && !element) return first
    let text: string
    if (held.length === 1) text = first.text.slice(this.startCol, end)
    else {
      const parts = [first.text.slice(this.startCol)]
      for (let i = 1; i < held.length - 1; i++) parts.push(held[i]!.text)
      parts.push(last.text.slice(0, end))
      text = parts.join('\n')
    }
    const record = this.join(first.line, this.offsetOf(first, this.startCol), text, element)
    // Bytes that were not UTF-8 in its lines, and a U+FFFD of theirs in its text.
    if (held.some((l) => l.invalidUtf8) && text.includes('\ufffd')) record.invalidUtf8 = true
    return record
  }

  private offsetOf(item: { text: string; offset: number }, col: number): number {
    return col <= 0 ? item.offset : item.offset + Buffer.byteLength(item.text.slice(0, col))
  }

  /** A broken value made of `lines` (the first from `col`), found broken at line `at`. */
  private brokenFrom(lines: readonly T[], col: number, reason: string, at: number, resume: number): Broken {
    const first = lines[0]
    const parts = lines.map((l, i) => (i === 0 ? l.text.slice(Math.max(0, col)) : l.text))
    return {
      line: first?.line ?? at,
      offset: first ? this.offsetOf(first, col) : 0,
      parts,
      chars: parts.reduce((n, p) => n + p.length + 1, 0),
      reason,
      at,
      resume,
    }
  }

  /**
   * The value being read is broken (found on line `at`). It is reported from its first line,
   * and reading resumes at the first line after that start where a value may begin (see the
   * module comment), the lines held since being read again; when none is held yet, the lines
   * to come are skipped up to one (SKIP).
   */
  private breakHere(out: (T | LineProblem)[], at: number, reason: string, col = 0): void {
    if ((this.inArray || this.whole) && !this.array.elements && at === this.array.line) {
      // Broken on the line of its `[`, before any element (`[INF] …`): not an array after all.
      this.inArray = this.whole = false
      this.startCol = this.array.col
    }
    // An array read whole is skipped to its closing `]` (its elements may start at the margin).
    const resume = this.inArray ? ELEMENT : this.whole ? WHOLE : TOP
    const held = this.held
    if (this.inArray && this.startCol === -1) {
      // Between two elements (a missing comma, a stray character): said at that line. Reading
      // resumes on it when an element opens right where it broke (a missing comma), else at
      // a later line.
      const line = held[held.length - 1]!
      const broken = this.brokenFrom([line], 0, reason, at, resume)
      out.push({ line: at, offset: line.offset, error: { code: 'bad_json', pointer: '', message: `not valid JSON: ${reason} (between two elements of the array)` }, text: line.text })
      broken.reported = true
      this.held = []
      const opener = line.text.charCodeAt(col)
      if (col === firstNonBlank(line.text) && (opener === 0x7b || opener === 0x5b) && this.opensElement(line.text)) {
        this.resume(line, out, resume)
        return
      }
      this.broken = broken
      this.mode = SKIP
      return
    }
    let k = -1
    for (let i = 1; i < held.length; i++) {
      if (this.resumesAt(held[i]!.text, resume)) {
        k = i
        break
      }
    }
    // Cut short before the line it broke on (a record cut short, then the next one): where it
    // broke says nothing about the text reported.
    // (An array read whole is one record up to its `]`: where it broke is within it.)
    const broken = this.brokenFrom(this.dropping ? [] : held.slice(0, k === -1 ? held.length : k), this.startCol, reason, k === -1 || resume === WHOLE ? at : 0, resume)
    if (this.whole && this.array.elements && broken.at !== 0) broken.named = this.array.element // named at the element it broke in
    if (this.dropping) broken.reported = true // said when it went over the bound
    this.held = []
    this.dropping = false
    if (k === -1) {
      this.broken = broken
      this.mode = SKIP
      return
    }
    this.flushBroken(out, broken)
    const rest = held.slice(k)
    this.resume(rest[0]!, out, resume)
    for (const line of rest.slice(1)) this.line(line, out)
  }

  /**
   * After an array's first element broke before its indentation was known (the line opening
   * it damaged): the elements' indentation is the least indentation of the lines in the window
   * that open a value (an element's members are indented further), and reading resumes at the
   * first of them. `next` is a line where reading resumes anyway (the array's `]`, a value at
   * the left margin).
   */
  private settleIndent(out: (T | LineProblem)[], next?: T): void {
    const lines = this.window
    this.window = []
    const broken = this.broken!
    let indent: string | undefined
    for (const l of lines) {
      const m = /^([ \t]*)[{[]/.exec(l.text)
      if (m && (indent === undefined || m[1]!.length < indent.length)) indent = m[1]!
    }
    const k = indent === undefined ? -1 : lines.findIndex((l) => opensElementAt(l.text, indent!))
    for (const l of k === -1 ? lines : lines.slice(0, k)) {
      if (broken.chars > this.maxLineBytes) break
      broken.parts.push(l.text)
      broken.chars += l.text.length + 1
    }
    if (k === -1) {
      if (next) {
        this.flushBroken(out)
        this.resume(next, out, ELEMENT)
      }
      return
    }
    this.indent = indent
    this.flushBroken(out)
    this.resume(lines[k]!, out, ELEMENT)
    for (const l of lines.slice(k + 1)) this.line(l, out)
    if (next) this.line(next, out)
  }

  /** Whether a line opens an element of the array being read (at the elements' indentation). */
  private opensElement(text: string): boolean {
    return this.indent !== undefined && opensElementAt(text, this.indent)
  }

  /**
   * Whether reading may resume at a line, after a broken value of kind `resume`: a value at the
   * left margin; in an array, its next element or its `]` (a line at the margin inside an array
   * indented further is damage, not the next value).
   */
  private resumesAt(text: string, resume: number): boolean {
    if (resume === TOP) return startsAtMargin(text)
    if (resume === WHOLE) return text.charCodeAt(0) === 0x5d
    if (text.charCodeAt(0) === 0x5d) return true
    return this.indent === undefined || this.indent === '' ? startsAtMargin(text) : this.opensElement(text)
  }

  /** Reading resumes at `item` after a broken value. */
  private resume(item: T, out: (T | LineProblem)[], resume: number): void {
    this.broken = undefined
    if (resume === ELEMENT && this.opensElement(item.text)) {
      // The array's next element.
      this.scanner.resumeInArray()
      this.inArray = true
      this.start(item, 0)
      this.startCol = -1
      this.run(item, 0, out)
      return
    }
    if (resume !== TOP && item.text.charCodeAt(0) === 0x5d) {
      // The array's closing bracket: what follows it on the line is read as usual.
      this.reset()
      const rest = item.text.slice(1)
      if (rest.trim() !== '') this.line({ ...item, text: rest, offset: item.offset + 1 }, out)
      return
    }
    if (resume === ELEMENT) out.push({ line: item.line, offset: item.offset, error: unclosed() })
    this.reset()
    this.line(item, out)
  }

  /** Reports the broken value (`broken`, else the one being skipped) unless it was already. */
  private flushBroken(out: (T | LineProblem)[], broken = this.broken): void {
    if (broken === this.broken) this.broken = undefined
    if (!broken || broken.reported) return
    const text = broken.parts.join('\n')
    // Named at the record's first line (an array read whole: the element it broke in), saying
    // how much further down it broke when that line is part of it.
    const line = broken.named ?? broken.line
    const below = broken.at > line ? broken.at - line : 0
    const error = broken.chars > this.maxLineBytes ? tooLarge(this.maxLineBytes, broken.line) : broken.reason === TOO_DEEP ? tooDeep() : brokenIssue(text, broken.reason, below)
    out.push({ line, offset: broken.offset, error, text: broken.chars > this.maxLineBytes ? text.slice(0, 4096) : text })
  }

  /** The input ended. */
  private finish(out: (T | LineProblem)[]): void {
    if (this.mode === SKIP && this.window.length > 0) {
      this.settleIndent(out)
      this.finish(out)
      return
    }
    if (this.mode === SKIP) {
      // A cut inside the array's last element says so itself; otherwise the array is unclosed.
      const unclosedArray = this.inArray && this.broken?.reported === true
      const line = this.broken?.line ?? 0
      this.flushBroken(out)
      this.reset()
      if (unclosedArray) out.push({ line, offset: 0, error: unclosed() })
      return
    }
    if (this.mode !== SCAN) return
    const last = this.held[this.held.length - 1]
    if (this.inArray && this.startCol === -1) {
      // Every element read, but no closing bracket.
      this.reset()
      out.push({ line: last?.line ?? 0, offset: last?.offset ?? 0, error: unclosed() })
      return
    }
    // A value (or element) cut short. The lines after its start are read again from the first
    // where one may start: a JSON Lines record cut short mid-file is followed by whole records,
    // an element that never closes by whole elements.
    const inArray = this.inArray
    this.breakHere(out, last?.line ?? 0, 'the input ends inside it')
    if (inArray && (this.mode as number) === SKIP && this.window.length === 0) {
      // Cut inside the array's last element: that element is the problem, the array's end is gone with it.
      this.flushBroken(out)
      this.reset()
      return
    }
    const mode = this.mode as number // breakHere() changed it
    if (mode === SKIP) {
      this.flushBroken(out)
      this.reset()
    } else if (mode === SCAN) this.finish(out)
  }
}

/** A pretty-printed array that never closes (a file cut short). */
function unclosed(): Issue {
  return { code: 'bad_json', pointer: '', message: 'not valid JSON: the array has no closing bracket (truncated?)' }
}

/**
 * The values of one line holding several, separated by whitespace (`{"a":1} {"b":2}`, as jq
 * reads them), or undefined when the line is not exactly that. For a line that did not parse
 * as one value: the common case never gets here.
 */
export function splitLine(text: string): string[] | undefined {
  const scanner = new JsonScanner(false)
  const values: string[] = []
  let at = firstNonBlank(text)
  while (at < text.length) {
    const start = at
    if (scanner.scan(text, at) !== END) return undefined
    values.push(text.slice(start, scanner.at))
    scanner.reset()
    at = scanner.at + firstNonBlank(text.slice(scanner.at))
  }
  return values.length >= 2 ? values : undefined
}
