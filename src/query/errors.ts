/**
 * Errors a person can act on: every problem with a query names where it is (a span of the
 * query text), the offending term, and what to do about it. The HTTP layer answers them with
 * 400 and `message` as the description; `l9kit filter` prints `message` and a caret line.
 */
import type { Span } from './syntax.js'

export type QueryErrorKind =
  /** The text does not follow the grammar (an unclosed quote or group, a sign with nothing after it, …). */
  | 'syntax'
  /** A control character or an unpaired surrogate. */
  | 'bad_character'
  /** More than MAX_QUERY_LENGTH characters. */
  | 'too_long'
  /** Groups nested deeper than MAX_DEPTH. */
  | 'too_deep'
  /** More than MAX_TERMS terms. */
  | 'too_many_terms'
  | 'unknown_field'
  /** A leak-only field in a search of services. */
  | 'wrong_scope'
  /** An operator the field's type does not have (a range on a text field, a regex on an integer, …). */
  | 'bad_operator'
  | 'bad_address'
  | 'bad_date'
  | 'bad_integer'
  | 'bad_number'
  | 'bad_bool'
  | 'bad_name'
  /** A text value with no word in it, or another value the field cannot compare with. */
  | 'bad_value'
  /** A regular expression that does not parse. */
  | 'bad_regex'
  /** A regular expression outside what the linear-time matchers accept (size, repetition, syntax). */
  | 'regex_refused'

/** Longest term shown in a message; longer ones are cut in the middle. */
const SHOWN = 60

export class QueryError extends Error {
  override name = 'QueryError'
  /** Where the offending term starts: a 0-based offset in UTF-16 code units. */
  readonly offset: number
  readonly length: number
  /** The offending term as written (possibly cut to SHOWN characters). */
  readonly term: string
  /** What is wrong, without the position (the message adds it). */
  readonly reason: string

  constructor(
    readonly kind: QueryErrorKind,
    reason: string,
    span: Span,
    text: string,
  ) {
    const term = clip(text.slice(span.offset, span.offset + span.length))
    super(`bad query at position ${span.offset + 1}${term === '' ? '' : ` (\`${term}\`)`}: ${reason}`)
    this.offset = span.offset
    this.length = span.length
    this.term = term
    this.reason = reason
  }

  /**
   * Two lines for a terminal: the query (control characters as spaces, cut around the term when
   * long) and a caret under the offending term.
   */
  caret(text: string): string {
    const from = Math.max(0, this.offset - 40)
    const shown = text.slice(from, this.offset + Math.max(this.length, 1) + 40).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    const lead = from > 0 ? '…' : ''
    const marks = '^'.repeat(Math.max(1, Math.min(this.length, shown.length - (this.offset - from))))
    return `${lead}${shown}\n${' '.repeat(lead.length + this.offset - from)}${marks}`
  }
}

function clip(term: string): string {
  const printable = term.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?')
  if (printable.length <= SHOWN) return printable
  return `${printable.slice(0, SHOWN / 2 - 1)}…${printable.slice(-SHOWN / 2 + 1)}`
}
