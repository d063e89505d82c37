/**
 * Query text → syntax tree (syntax.ts), by recursive descent over the characters. Grammar:
 *
 *   query  = ws* [clause (ws+ clause)*] ws*
 *   clause = ['+' | '-'] ws* (group | term)       (white space after a sign is skipped, as LeakIX's engine does)
 *   group  = '(' ws* clause (ws+ clause)* ws* ')'
 *   term   = '*' | phrase | word | name ':' ['=' | '>' | '<' | '>=' | '<=' | '~'] (phrase | word)
 *          | name ':'                              (no value: allowed by LeakIX's syntax; matches nothing)
 *   phrase = '"' (any character; `\"` and `\\` escape a quote and a backslash) '"'
 *   word   = one or more characters other than white space, '(', ')' and '"'
 *   name   = a letter or '_', then letters, digits, '_', '.', '-' (only when ':' follows)
 *
 * Hostile input costs little: the text is read once, at most MAX_QUERY_LENGTH characters,
 * groups at most MAX_DEPTH deep (so the recursion is bounded), at most MAX_TERMS terms.
 */
import { QueryError, type QueryErrorKind } from './errors.js'
import type { Clause, Node, Op, Occur, Span, TermNode } from './syntax.js'

/** Longest query accepted, in UTF-16 code units. */
export const MAX_QUERY_LENGTH = 4096
/** Deepest nesting of groups. */
export const MAX_DEPTH = 16
/** Most terms (words, phrases, field terms, `*`) in one query. */
export const MAX_TERMS = 128

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13
/** Characters that end an unquoted word or value. */
const ends = (c: number) => isSpace(c) || c === 40 || c === 41 || c === 34 // ( ) "
const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57) || c === 46 || c === 45

/** Parses query text into its clauses (none for an empty query); throws QueryError. */
export function parseSyntax(text: string): Clause[] {
  return new Parser(text).parse()
}

class Parser {
  private at = 0
  private terms = 0

  constructor(private readonly text: string) {}

  parse(): Clause[] {
    const text = this.text
    if (text.length > MAX_QUERY_LENGTH) {
      this.fail('too_long', `the query has ${text.length} characters; at most ${MAX_QUERY_LENGTH} are accepted`, { offset: MAX_QUERY_LENGTH, length: text.length - MAX_QUERY_LENGTH })
    }
    checkCharacters(text)
    const clauses = this.clauses(0, null)
    return clauses
  }

  private fail(kind: QueryErrorKind, reason: string, span: Span): never {
    throw new QueryError(kind, reason, span, this.text)
  }

  private skipSpace(): void {
    while (this.at < this.text.length && isSpace(this.text.charCodeAt(this.at))) this.at++
  }

  /** Clauses up to the end of the text, or up to the `)` closing the group opened at `open`. */
  private clauses(depth: number, open: number | null): Clause[] {
    const out: Clause[] = []
    const text = this.text
    for (;;) {
      this.skipSpace()
      if (this.at >= text.length) {
        if (open !== null) this.fail('syntax', 'this group is never closed: add `)`', { offset: open, length: 1 })
        return out
      }
      if (text.charCodeAt(this.at) === 41) {
        if (open === null) this.fail('syntax', 'this `)` closes no group', { offset: this.at, length: 1 })
        return out
      }
      if (out.length > 0 && !isSpace(text.charCodeAt(this.at - 1))) {
        this.fail('syntax', 'terms are separated by spaces: add one before this term', { offset: this.at, length: 1 })
      }
      out.push(this.clause(depth))
    }
  }

  private clause(depth: number): Clause {
    const text = this.text
    const start = this.at
    const sign = text.charCodeAt(this.at)
    let occur: Occur = 'should'
    if (sign === 43 || sign === 45) {
      occur = sign === 43 ? 'must' : 'not'
      this.at++
      // `+ port:22`: LeakIX's engine skips white space after a sign, so this reads as `+port:22`.
      this.skipSpace()
      const next = this.at < text.length ? text.charCodeAt(this.at) : -1
      if (next === -1 || next === 41) this.fail('syntax', `\`${text[start]}\` must be followed by a term or a group`, { offset: start, length: 1 })
      if (next === 43 || next === 45) this.fail('syntax', 'a term takes one sign: `+` (required) or `-` (excluded)', { offset: start, length: this.at + 1 - start })
    }
    const node = text.charCodeAt(this.at) === 40 ? this.group(depth) : this.term()
    return { occur, node, span: { offset: start, length: this.at - start } }
  }

  private group(depth: number): Node {
    const open = this.at
    if (depth + 1 > MAX_DEPTH) this.fail('too_deep', `groups are nested more than ${MAX_DEPTH} deep`, { offset: open, length: 1 })
    this.at++
    const clauses = this.clauses(depth + 1, open)
    if (clauses.length === 0) this.fail('syntax', 'this group is empty: put a term in it or remove it', { offset: open, length: this.at + 1 - open })
    this.at++ // the `)`
    return { kind: 'group', clauses, span: { offset: open, length: this.at - open } }
  }

  private term(): Node {
    const text = this.text
    const start = this.at
    if (++this.terms > MAX_TERMS) this.fail('too_many_terms', `the query has more than ${MAX_TERMS} terms`, { offset: start, length: 1 })
    // A field term: a name, then `:`.
    let i = start
    if (isNameStart(text.charCodeAt(i))) {
      while (i < text.length && isNameChar(text.charCodeAt(i))) i++
      if (text.charCodeAt(i) === 58) return this.fieldTerm(start, i)
    }
    if (text.charCodeAt(start) === 34) {
      const { value, valueSpan } = this.quoted()
      return { kind: 'term', field: null, op: ':', value, quoted: true, span: { offset: start, length: this.at - start }, valueSpan }
    }
    const value = this.word()
    if (value === '*') return { kind: 'all', span: { offset: start, length: 1 } }
    const span = { offset: start, length: this.at - start }
    return { kind: 'term', field: null, op: ':', value, quoted: false, span, valueSpan: span }
  }

  private fieldTerm(start: number, colon: number): TermNode {
    const text = this.text
    const field = text.slice(start, colon).toLowerCase()
    this.at = colon + 1
    let op: Op = ':'
    const c = text.charCodeAt(this.at)
    if (c === 62 || c === 60) {
      const eq = text.charCodeAt(this.at + 1) === 61
      op = c === 62 ? (eq ? ':>=' : ':>') : eq ? ':<=' : ':<'
      this.at += eq ? 2 : 1
    } else if (c === 61 || c === 126) {
      op = c === 61 ? ':=' : ':~'
      this.at++
    }
    if (this.at >= text.length || ends(text.charCodeAt(this.at))) {
      const c = text.charCodeAt(this.at)
      // `http.title:` with nothing after it: LeakIX's syntax allows a field "with or without a value".
      if (op === ':' && (this.at >= text.length || isSpace(c) || c === 41)) {
        return { kind: 'term', field, op, value: '', quoted: false, span: { offset: start, length: this.at - start }, valueSpan: { offset: this.at, length: 0 } }
      }
      if (c !== 34) this.fail('syntax', `\`${text.slice(start, this.at)}\` needs a value after it (quote it if it holds spaces or parentheses)`, { offset: start, length: this.at - start })
    }
    if (text.charCodeAt(this.at) === 34) {
      const { value, valueSpan } = this.quoted()
      return { kind: 'term', field, op, value, quoted: true, span: { offset: start, length: this.at - start }, valueSpan }
    }
    const valueStart = this.at
    const value = this.word()
    return { kind: 'term', field, op, value, quoted: false, span: { offset: start, length: this.at - start }, valueSpan: { offset: valueStart, length: this.at - valueStart } }
  }

  /** An unquoted word: up to white space, a parenthesis or a quote. */
  private word(): string {
    const text = this.text
    const start = this.at
    while (this.at < text.length && !ends(text.charCodeAt(this.at))) this.at++
    const next = this.at < text.length ? text.charCodeAt(this.at) : -1
    if (next === 34 || next === 40) {
      this.fail('syntax', `a quote or \`(\` cannot follow \`${text.slice(start, this.at)}\` directly: add a space, or quote the whole value`, { offset: this.at, length: 1 })
    }
    return text.slice(start, this.at)
  }

  /** A double-quoted phrase; `\"` and `\\` stand for `"` and `\`, any other backslash is kept. */
  private quoted(): { value: string; valueSpan: Span } {
    const text = this.text
    const open = this.at
    let value = ''
    let i = open + 1
    let from = i
    for (;;) {
      if (i >= text.length) this.fail('syntax', 'this quote is never closed: add `"`', { offset: open, length: 1 })
      const c = text.charCodeAt(i)
      if (c === 34) break
      if (c === 92 && (text.charCodeAt(i + 1) === 34 || text.charCodeAt(i + 1) === 92)) {
        value += text.slice(from, i)
        from = i + 1
        i += 2
        continue
      }
      i++
    }
    value += text.slice(from, i)
    this.at = i + 1
    const next = this.at < text.length ? text.charCodeAt(this.at) : -1
    if (next !== -1 && !isSpace(next) && next !== 41) {
      this.fail('syntax', 'a quoted value ends the term: add a space after the closing quote', { offset: this.at, length: 1 })
    }
    return { value, valueSpan: { offset: open + 1, length: i - open - 1 } }
  }
}

/** Refuses control characters (tab, line feed and carriage return are white space) and unpaired surrogates. */
function checkCharacters(text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if ((c < 32 && !isSpace(c)) || (c >= 0x7f && c <= 0x9f)) {
      const name = `U+${c.toString(16).toUpperCase().padStart(4, '0')}`
      throw new QueryError('bad_character', `the control character ${name} is not allowed in a query`, { offset: i, length: 1 }, text)
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const paired = c <= 0xdbff && i + 1 < text.length && text.charCodeAt(i + 1) >= 0xdc00 && text.charCodeAt(i + 1) <= 0xdfff
      if (!paired) throw new QueryError('bad_character', 'an unpaired surrogate is not text (the query must be valid Unicode)', { offset: i, length: 1 }, text)
      i++
    }
  }
}
