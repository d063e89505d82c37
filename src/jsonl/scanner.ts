/**
 * The structure of JSON text, one line at a time: where a value opens and closes, where an
 * array's elements start and end, and where the text stops being JSON. It checks the grammar
 * of brackets, members, colons and commas (JSON.parse has the last word on the value itself:
 * escapes, number syntax), which is what lets a reader split a stream of values spread over
 * lines (`jq .` output, a pretty-printed array) and tell a record cut short from the next one.
 *
 * A JSON string cannot hold a raw line break, so a line that ends inside a string ends a broken
 * value: that is how a truncated JSON Lines record is told from a value spread over lines.
 */
import { MAX_DEPTH } from './depth.js'

/** What scan() stopped at. */
export const MORE = 0 // the line is used up, the value goes on
export const END = 1 // the top-level value ends at `at` (exclusive)
export const ELEMENT_START = 2 // an element of the top-level array starts at `at`
export const ELEMENT_END = 3 // that element ends at `at` (exclusive)
export const BROKEN = 4 // the text is not JSON at `at`; `reason` says why

/** The reason given when nesting goes past the bound. */
export const TOO_DEEP = 'nested too deep'

export type ScanEvent = typeof MORE | typeof END | typeof ELEMENT_START | typeof ELEMENT_END | typeof BROKEN

// What the next significant character may be.
const VALUE = 0 // a value (after `:`, after `,` in an array, at the top)
const VALUE_OR_CLOSE = 1 // right after `[`
const KEY_OR_CLOSE = 2 // right after `{`
const KEY = 3 // after `,` in an object
const COLON = 4 // after a member name
const COMMA_OR_CLOSE = 5 // after a value inside an object or array

const OBJECT = 0
const ARRAY = 1

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a
/** Characters of `true`, `false`, `null` and numbers. */
const isWordChar = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e
/** A whole word that is a JSON literal or number. */
const WORD = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/

/** One top-level JSON value's structure, fed a line at a time (see ValueSplitter). */
export class JsonScanner {
  /** Where the last event happened (an index into the line given to scan()). */
  at = 0
  /** Why the text is not JSON, after BROKEN. */
  reason = ''
  private stack: number[] = []
  private expect = VALUE
  private inString = false
  private escaped = false
  private isKey = false
  private pendingStart = false
  /**
   * `elements`: report the elements of a top-level array (ELEMENT_START / ELEMENT_END).
   * `maxDepth`: deeper nesting is broken at once (no record that deep is read anyway: depth.ts),
   * so an unclosed run of brackets cannot swallow the records after it.
   */
  constructor(
    private readonly elements = false,
    private readonly maxDepth = MAX_DEPTH + 1,
  ) {}

  /** Nesting depth now (0 between top-level values). */
  get depth(): number {
    return this.stack.length
  }

  /** True inside the top-level array, between its elements. */
  get betweenElements(): boolean {
    return this.stack.length === 1 && this.stack[0] === ARRAY && !this.inString
  }

  /** True when nothing of a value has been read since the last reset. */
  get idle(): boolean {
    return this.stack.length === 0 && !this.inString && this.expect === VALUE
  }

  /** Forgets everything: the next character starts a new top-level value. */
  reset(): void {
    this.stack.length = 0
    this.expect = VALUE
    this.inString = this.escaped = this.isKey = this.pendingStart = false
  }

  /** As if inside a top-level array, an element expected next (a reader resuming after a broken element). */
  resumeInArray(): void {
    this.reset()
    this.stack.push(ARRAY)
    this.expect = VALUE_OR_CLOSE
  }

  /**
   * Scans `line` from `from` until something happens: returns the event, with `at` set (for
   * MORE, the line's end). Call again from `at` to go on (after ELEMENT_START, from `at` too:
   * the element's first character has not been consumed).
   */
  scan(line: string, from: number): ScanEvent {
    const end = line.length
    let i = from
    if (this.inString) {
      i = this.stringEnd(line, i)
      if (i < 0) return this.broken(-i - 1, 'a control character inside a string')
      if (i === end) return this.more(end)
      i++ // past the closing quote
      this.inString = false
      if (this.isKey) this.expect = COLON
      else {
        const event = this.afterValue(i)
        if (event !== MORE) return event
      }
    }
    for (; i < end; i++) {
      const c = line.charCodeAt(i)
      if (isSpace(c)) continue
      switch (this.expect) {
        case VALUE:
        case VALUE_OR_CLOSE:
          if (c === 0x5d /* ] */ && this.expect === VALUE_OR_CLOSE) {
            const event = this.close(ARRAY, i)
            if (event !== MORE) return event
            continue
          }
          {
            // What the value is, and where a word ends (it cannot go past the line's end).
            let wordEnd = -1
            if (c !== 0x7b && c !== 0x5b && c !== 0x22) {
              if (!isWordChar(c)) return this.broken(i, `unexpected ${shown(c)} where a value was expected`)
              wordEnd = i + 1
              while (wordEnd < end && isWordChar(line.charCodeAt(wordEnd))) wordEnd++
              if (!WORD.test(line.slice(i, wordEnd))) return this.broken(i, `unexpected ${shown(c)} where a value was expected`)
            }
            if (this.elements && this.stack.length === 1 && this.stack[0] === ARRAY && !this.pendingStart) {
              // An element's first character: reported before it is consumed.
              this.pendingStart = true
              this.at = i
              return ELEMENT_START
            }
            this.pendingStart = false
            if (c === 0x7b /* { */) {
              if (this.stack.push(OBJECT) > this.maxDepth) return this.broken(i, TOO_DEEP)
              this.expect = KEY_OR_CLOSE
            } else if (c === 0x5b /* [ */) {
              if (this.stack.push(ARRAY) > this.maxDepth) return this.broken(i, TOO_DEEP)
              this.expect = VALUE_OR_CLOSE
            } else if (c === 0x22 /* " */) {
              this.isKey = false
              const close = this.stringEnd(line, i + 1)
              if (close < 0) return this.broken(-close - 1, 'a control character inside a string')
              if (close === end) {
                this.inString = true
                return this.more(end)
              }
              i = close
              const event = this.afterValue(i + 1)
              if (event !== MORE) return event
            } else {
              i = wordEnd - 1
              const event = this.afterValue(wordEnd)
              if (event !== MORE) return event
            }
          }
          continue
        case KEY_OR_CLOSE:
        case KEY:
          if (c === 0x7d /* } */ && this.expect === KEY_OR_CLOSE) {
            const event = this.close(OBJECT, i)
            if (event !== MORE) return event
            continue
          }
          if (c !== 0x22) return this.broken(i, `unexpected ${shown(c)} where a member name was expected`)
          {
            this.isKey = true
            const close = this.stringEnd(line, i + 1)
            if (close < 0) return this.broken(-close - 1, 'a control character inside a string')
            if (close === end) {
              this.inString = true
              return this.more(end)
            }
            i = close
            this.expect = COLON
          }
          continue
        case COLON:
          if (c !== 0x3a /* : */) return this.broken(i, `unexpected ${shown(c)} where ':' was expected`)
          this.expect = VALUE
          continue
        case COMMA_OR_CLOSE: {
          const top = this.stack[this.stack.length - 1]
          if (c === 0x2c /* , */) {
            this.expect = top === OBJECT ? KEY : VALUE
            continue
          }
          if ((c === 0x7d && top === OBJECT) || (c === 0x5d && top === ARRAY)) {
            const event = this.close(top, i)
            if (event !== MORE) return event
            continue
          }
          return this.broken(i, `unexpected ${shown(c)} where ',' or '${top === OBJECT ? '}' : ']'}' was expected`)
        }
      }
    }
    return this.more(end)
  }

  /** The line ended (a line break follows): a string still open is broken (JSON strings hold no raw line break). */
  lineEnd(length: number): ScanEvent {
    if (this.inString) return this.broken(length, 'the line ends inside a string')
    return MORE
  }

  /** A value just ended at `at` (exclusive). */
  private afterValue(at: number): ScanEvent {
    this.at = at
    if (this.stack.length === 0) return END
    this.expect = COMMA_OR_CLOSE
    if (this.elements && this.stack.length === 1 && this.stack[0] === ARRAY) return ELEMENT_END
    return MORE
  }

  /** Closes the innermost container (of `kind`, its bracket at `i`). */
  private close(kind: number, i: number): ScanEvent {
    if (this.stack[this.stack.length - 1] !== kind) return this.broken(i, `unexpected ${shown(kind === OBJECT ? 0x7d : 0x5d)}`)
    this.stack.pop()
    if (this.elements && this.stack.length === 0 && kind === ARRAY) {
      // The top-level array itself closes: it is not an element.
      this.at = i + 1
      return END
    }
    return this.afterValue(i + 1)
  }

  /** Index of the closing quote from `i`, `line.length` when the line ends first, -(k+1) for a control character at k. */
  private stringEnd(line: string, i: number): number {
    const end = line.length
    if (this.escaped) {
      this.escaped = false
      i++
    }
    for (; i < end; i++) {
      const c = line.charCodeAt(i)
      if (c === 0x22) return i
      if (c === 0x5c) {
        if (i + 1 === end) {
          this.escaped = true
          return end
        }
        i++
      } else if (c < 0x20) return -(i + 1)
    }
    return end
  }

  private more(end: number): ScanEvent {
    this.at = end
    return MORE
  }

  private broken(at: number, reason: string): ScanEvent {
    this.at = at
    this.reason = reason
    return BROKEN
  }
}

const shown = (c: number) => (c >= 0x21 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`)
