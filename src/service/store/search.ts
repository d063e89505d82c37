/**
 * What both stores' search shares: the page asked for, and the error a search that would cost
 * too much ends with (the HTTP layer answers it with a 4xx that says to add a selective term).
 */

/** A page of results: skip `offset` matches, return at most `limit` (newest first). */
export interface SearchPage {
  offset: number
  limit: number
}

/** How far one search may go (Store.search; the bulk export's reads take them too). */
export interface SearchOptions {
  /**
   * Work the search may do, in the query engine's units (query/cost.ts: the events it evaluates
   * × their cost); past it, SearchLimitError. Undefined: only the store's own limits.
   */
  work?: number
  /**
   * Stops the search (its client went away): the memory store evaluates no further event, the
   * PostgreSQL store cancels its statement. The search then ends with the signal's reason.
   */
  signal?: AbortSignal
}

/** Options of Store.searchAll and Store.searchByResource (bulk export). */
export interface SearchAllOptions extends SearchOptions {
  /** Events read per step (the memory store yields to the event loop between steps). */
  batch?: number
}

/**
 * A search stopped before it could answer because it would cost more than the store allows
 * one request: the memory store evaluated `scanLimit` events without filling the page, or did
 * the work its budget allows (SearchOptions.work), the PostgreSQL store's statement ran past its
 * timeout. Never a user's mistake in the syntax: the query is valid, just not selective enough.
 */
export class SearchLimitError extends Error {
  override name = 'SearchLimitError'
}

/** Default number of events the memory store evaluates for one page before giving up. */
export const DEFAULT_SCAN_LIMIT = 100_000
/** Default statement timeout of one PostgreSQL search page, in milliseconds. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5_000
