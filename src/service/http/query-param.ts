/**
 * The `q` and `scope` query parameters of the search routes (GET /search here, the bulk routes
 * too): one reading, one set of messages. A query that does not parse is answered with the
 * engine's QueryError message, which names the position and the offending term.
 */
import { parseQuery, type Query, QueryError } from '../../query/index.js'
import { shown } from './reply.js'

/** The two scopes of the lookup API. */
export const SEARCH_SCOPES = ['service', 'leak'] as const
export type SearchScope = (typeof SEARCH_SCOPES)[number]

export interface ReadQueryOptions {
  /** A fixed scope (the `scope` parameter is then not read); default: `scope` is required. */
  scope?: SearchScope
}

/** A checked query and the parameters it came with, or why the request is wrong (a 400). */
export type QueryParam =
  | { ok: true; scope: SearchScope; query: Query; params: URLSearchParams }
  | { ok: false; message: string; error?: QueryError }

/**
 * Reads `scope` (`service` or `leak`, required unless options.scope is given) and `q` (absent or
 * empty: every event, as `*`) from a request target (`/search?scope=leak&q=…`).
 */
export function readQuery(url: string, options: ReadQueryOptions = {}): QueryParam {
  const at = url.indexOf('?')
  const params = new URLSearchParams(at === -1 ? '' : url.slice(at + 1))
  let scope = options.scope
  if (scope === undefined) {
    const given = params.get('scope')
    if (given === null) return { ok: false, message: 'The scope parameter is missing: give scope=service or scope=leak.' }
    if (!(SEARCH_SCOPES as readonly string[]).includes(given)) return { ok: false, message: `The scope parameter ${shown(given)} is not a scope: give scope=service or scope=leak.` }
    scope = given as SearchScope
  }
  const text = params.get('q') ?? ''
  try {
    return { ok: true, scope, query: parseQuery(text, { scope }), params }
  } catch (error) {
    if (error instanceof QueryError) return { ok: false, message: error.message, error }
    throw error
  }
}
