/**
 * The query's syntax tree: what the text says, before any field is looked up. Every node
 * knows where it was written (`span`), so errors found later can point at it. The printer
 * (print.ts) writes a tree back as canonical text; parsing that text gives the same tree.
 */

/** A part of the query text: a 0-based offset and a length, in UTF-16 code units. */
export interface Span {
  offset: number
  length: number
}

/** `+` required, `-` excluded, no sign optional. */
export type Occur = 'must' | 'not' | 'should'

/** What follows the field name: `:` match, `:=` exact, ranges, `:~` regular expression. */
export type Op = ':' | ':=' | ':>' | ':<' | ':>=' | ':<=' | ':~'

export const OPS: readonly Op[] = [':', ':=', ':>', ':<', ':>=', ':<=', ':~']

/** One signed part of a query or of a group. */
export interface Clause {
  occur: Occur
  node: Node
  /** From the sign (if any) to the end of the node. */
  span: Span
}

export type Node = AllNode | GroupNode | TermNode

/** `*`: every event. */
export interface AllNode {
  kind: 'all'
  span: Span
}

/** `( … )`: clauses combined by the same rules as the whole query. */
export interface GroupNode {
  kind: 'group'
  clauses: Clause[]
  span: Span
}

/** A word, a phrase, or a field term (`field:value`, `field:>value`, `field:"a phrase"`). */
export interface TermNode {
  kind: 'term'
  /** The field name in lower case, as written (an alias stays an alias); null for a bare word or phrase. */
  field: string | null
  /** ':' for a bare word or phrase. */
  op: Op
  /** The value, unquoted and unescaped. */
  value: string
  /** Written in double quotes (then `*` is a star, not "any value"). */
  quoted: boolean
  span: Span
  /** Where the value is (inside the quotes for a quoted one). */
  valueSpan: Span
}
