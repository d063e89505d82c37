/**
 * The `q` parameter of the bulk routes, parsed for a scope. Missing or empty is `*` (every event).
 * (A stand-in for the shared q/scope helper of GET /search; the two are to be merged.)
 */
import { parseQuery, type Query, QueryError, type Scope } from '../../query/index.js'

/** The query of a request target, or the message of its 400. */
export function bulkQuery(url: string, scope: Scope): { ok: true; query: Query } | { ok: false; message: string } {
  const q = new URL(url, 'http://localhost').searchParams.get('q') ?? ''
  try {
    return { ok: true, query: parseQuery(q, { scope }) }
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, message: error.message }
    throw error
  }
}
