/** The checked form of a query: what the evaluator, the SQL compiler and the planner read. */
import type { AddressRange } from './address.js'
import type { Field } from './fields.js'
import type { Regex } from './regex.js'
import type { Clause, Span } from './syntax.js'

/**
 * Which events a query searches: `service` or `leak` events only (the lookup API's two
 * scopes; leak-only fields are refused with `service`), or `any` document (offline: every
 * field allowed, every event_type kept).
 */
export type Scope = 'service' | 'leak' | 'any'

/** A parsed and checked query. Make one with parseQuery(). */
export interface Query {
  /** The text as given. */
  readonly text: string
  readonly scope: Scope
  /** The syntax tree (print it with printQuery for the canonical text). */
  readonly clauses: readonly Clause[]
  readonly cond: Cond
}

/**
 * A condition: `all` (every event), a combination (`must` all hold, no `not` holds, and when
 * there is no `must`, at least one `should` if there are any), or a test of one or more fields
 * (any value of any of them passes: a bare word tests every bare text field).
 */
export type Cond =
  | { kind: 'all' }
  | { kind: 'bool'; must: Cond[]; should: Cond[]; not: Cond[] }
  | TestCond

export interface TestCond {
  kind: 'test'
  fields: readonly Field[]
  /** For a map field: the header name in lower case (undefined: any header). */
  key?: string
  test: Test
  span: Span
}

/** One bound of a range: a number (integer and float fields) or an instant in nanoseconds (dates). */
export interface Bound {
  value: number | bigint
  inclusive: boolean
}

export type Test =
  /** Text: the words (one, or a phrase) appear in the value, in order. */
  | { kind: 'words'; words: readonly string[] }
  /** The whole value equals this string (keyword; `:=` on text). */
  | { kind: 'equals'; value: string }
  | { kind: 'regex'; regex: Regex }
  /** `field:*`: the field has a value (not empty, 0, false, the zero time, or absent). */
  | { kind: 'exists' }
  | { kind: 'range'; lo?: Bound; hi?: Bound }
  | { kind: 'bool'; value: boolean }
  | { kind: 'address'; range: AddressRange }
  /** The name, or (`under`) the name and every name below it. */
  | { kind: 'name'; name: string; under: boolean }
  /** A country by ISO code (null when the value named none) and by its names in lower case. */
  | { kind: 'country'; code: string | null; names: readonly string[] }
