/**
 * GET /search/count?scope=service|leak&q=QUERY&facet=port,country:5,… (our extension,
 * docs/search.md "Counting and facets"): how many events the query matches, `{"total": N}`,
 * and for each facet asked for its most frequent values, `"facets": {"port": [{"value",
 * "count"}…]}`. Checked and charged as /search is: method, accept (406), key (401), rate limit
 * (429, one token), scope, query and facets (400), a plan that may not search (403), then the
 * store (422 when the count would cost too much). The count runs through the store's count(),
 * which takes its matches from the search's own loop (memory) or SELECT (PostgreSQL).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { FacetError, type FacetRequest, parseFacets } from '../../query/facets.js'
import type { FacetValue, SearchCount } from '../../schema/index.js'
import type { CountResult } from '../store/count.js'
import { SearchLimitError } from '../store/search.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { acceptsJson } from './lookups.js'
import { readQuery } from './query-param.js'
import { sendError, sendJson, shown } from './reply.js'
import { ROUTES_TEXT } from './route.js'

/** The body of a count's answer: `facets` only when some were asked for, in the order asked. */
export function countBody(result: CountResult, asked: boolean): string {
  const body: SearchCount = { total: result.total }
  if (asked) body.facets = Object.fromEntries(result.facets.map((f) => [f.name, f.values.map((v): FacetValue => ({ value: v.value, count: v.count }))]))
  return JSON.stringify(body)
}

export function handleSearchCount(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendError(res, 404, `No route for ${req.method} on this path; routes are ${ROUTES_TEXT}.`)
  const accept = req.headers.accept
  if (accept !== undefined && !acceptsJson(accept)) return sendError(res, 406, `The answer is application/json, which the accept header (${shown(accept)}) does not allow.`)
  const caller = identify(ctx, req, res)
  if (caller === undefined || !withinLimit(ctx, caller, res)) return
  const read = readQuery(req.url ?? '/')
  if (!read.ok) return sendError(res, 400, read.message)
  const given = read.params.getAll('facet')
  let facets: FacetRequest[]
  try {
    facets = parseFacets(given.join(','), read.scope)
  } catch (error) {
    if (!(error instanceof FacetError)) throw error
    return sendError(res, 400, `The facet parameter: ${error.message}.`)
  }
  if (caller.plan.searchPages === 0) return sendError(res, 403, `The ${caller.plan.name} plan may not search, nor count. Use a key of a plan that may.`)
  const answer = (result: CountResult) => sendJson(res, 200, countBody(result, given.length > 0))
  const fail = (error: unknown) => {
    if (res.headersSent) return void res.destroy()
    if (error instanceof SearchLimitError) return sendError(res, 422, `The count is too costly to answer in one request: ${error.message}.`)
    // The store's own words (a database's) stay out of the answer.
    sendError(res, 500, 'The store failed to count; the server log may say more.')
  }
  try {
    const result = ctx.store.count(read.query, { facets })
    if (result instanceof Promise) result.then(answer, fail)
    else answer(result)
  } catch (error) {
    fail(error)
  }
}
