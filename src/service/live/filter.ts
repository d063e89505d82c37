/**
 * The live stream's `?q=` filter: the query text made into a predicate over new events. This is
 * the hook point for the query engine (issue 30): until it lands, only the query that matches
 * everything (`*`, or none) is accepted, and any other is refused with a 400 that says so.
 */
import type { NewEvent } from '../store/index.js'

/** Whether a new event goes to the subscribers of a filter. */
export type LivePredicate = (item: NewEvent) => boolean

export interface LiveFilter {
  /** The query as given, trimmed ('' for none): subscribers with the same text share one group. */
  text: string
  matches: LivePredicate
}

const EVERYTHING: LivePredicate = () => true

/** The filter of a query, or the reason it cannot be one (for a 400). */
export function liveFilter(query: string | null): { ok: true; filter: LiveFilter } | { ok: false; message: string } {
  const text = (query ?? '').trim()
  if (text === '' || text === '*') return { ok: true, filter: { text: '*', matches: EVERYTHING } }
  // TODO(issue 30): build the predicate with the query engine (src/query: parse the text, report
  // its errors as this 400 does, then evaluate the tree against item.event()); the hub already
  // parses an event once per group that asks for it.
  return {
    ok: false,
    message: `The live stream takes no query yet but '*' (everything): ${JSON.stringify(text.slice(0, 80))} cannot be applied. Leave q out, or filter the stream yourself.`,
  }
}
