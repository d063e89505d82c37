/** The entry points: text → checked Query, and Query → canonical text. */
import { compileClauses } from './compile.js'
import { parseSyntax } from './parse.js'
import { printClauses } from './print.js'
import type { Query, Scope } from './types.js'

export interface ParseOptions {
  /** `service`, `leak`, or `any` (the default: every field, every event_type). */
  scope?: Scope
}

/**
 * Parses and checks a query for `scope`. Throws a QueryError (with the position and the term)
 * when the text does not parse, names an unknown field or a field of another scope, or holds
 * a value its field cannot take. An empty query, or `*`, matches every event.
 */
export function parseQuery(text: string, options: ParseOptions = {}): Query {
  const scope = options.scope ?? 'any'
  const clauses = parseSyntax(text)
  return { text, scope, clauses, cond: compileClauses(clauses, scope, text) }
}

/** The query's canonical text: parsing it gives the same tree (positions aside). */
export const printQuery = (query: Pick<Query, 'clauses'>): string => printClauses(query.clauses)
