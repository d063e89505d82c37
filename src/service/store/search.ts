/**
 * What both stores' search shares: the page asked for, and the error a search that would cost
 * too much ends with (the HTTP layer answers it with a 4xx that says to add a selective term).
 */

/** A page of results: skip `offset` matches, return at most `limit` (newest first). */
export interface SearchPage {
  offset: number
  limit: number
}

/** Options of Store.searchAll (bulk export). */
export interface SearchAllOptions {
  /** Events read per step (the memory store yields to the event loop between steps). */
  batch?: number
}

/**
 * A search stopped before it could answer because it would cost more than the store allows
 * one request: the memory store evaluated `scanLimit` events without filling the page, the
 * PostgreSQL store's statement ran past its timeout. Never a user's mistake in the syntax:
 * the query is valid, just not selective enough.
 */
export class SearchLimitError extends Error {
  override name = 'SearchLimitError'
}

/** Default number of events the memory store evaluates for one page before giving up. */
export const DEFAULT_SCAN_LIMIT = 100_000
/** Default statement timeout of one PostgreSQL search page, in milliseconds. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5_000
