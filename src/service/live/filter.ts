/**
 * The live stream's `?q=` filter: the query text, parsed by the query engine for the stream's
 * scope, made into a predicate over new events (`matches`, the evaluator every search is checked
 * against). A new event has been seen once, so its first and last seen are its `time`. A query
 * that does not parse, names an unknown field or one of another scope is refused (400, before
 * the upgrade) with the engine's message: the position and the term.
 */
import { matches, parseQuery, type Query, QueryError, queryCost, type Scope } from '../../query/index.js'
import type { NewEvent } from '../store/index.js'

/** Whether a new event goes to the subscribers of a filter. */
export type LivePredicate = (item: NewEvent) => boolean

export interface LiveFilter {
  /** The query as given, trimmed ('*' for none): subscribers with the same scope and text share one group. */
  text: string
  matches: LivePredicate
  /** The query's cost per event (query/cost.ts): what each event it tests takes of its subscriber's budget. */
  cost: number
  /** The parsed query (undefined for everything): a plan's `max_query_cost` is checked on it. */
  query?: Query
}

const EVERYTHING: LivePredicate = () => true
const ALL: LiveFilter = { text: '*', matches: EVERYTHING, cost: 0 }

/** The filter of a query for the stream of `scope`, or the reason it cannot be one (for a 400). */
export function liveFilter(query: string | null, scope: Scope = 'any'): { ok: true; filter: LiveFilter } | { ok: false; message: string } {
  const text = (query ?? '').trim()
  if (text === '' || text === '*') return { ok: true, filter: ALL }
  try {
    const parsed = parseQuery(text, { scope })
    if (parsed.cond.kind === 'all') return { ok: true, filter: ALL }
    return { ok: true, filter: { text, matches: (item) => matches(parsed, item.event()), cost: queryCost(parsed).perEvent, query: parsed } }
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, message: error.message }
    throw error
  }
}
