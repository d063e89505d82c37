/**
 * GET /search/count?scope=service|leak&q=QUERY&facet=port,country:5,… (our extension,
 * docs/search.md "Counting and facets"): how many events the query matches, `{"total": N}`,
 * and for each facet asked for its most frequent values, `"facets": {"port": [{"value",
 * "count"}…]}`. Checked and charged as /search is: method, accept (406), key (401), rate limit
 * (429, one token), scope, query and facets (400), a plan that may not search (403), then on
 * the bounded path every query read takes (costly.ts runQuery: the plan's cost cap 422, a search
 * slot 429, the plan's work budget, stopped when the client goes away), the store's count(),
 * which takes its matches from the search's own path (memory) or SELECT (PostgreSQL); 422 when
 * the count would cost too much.
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
import { closedSignal, runQuery, type QueryRun } from './costly.js'
import { failed, READ_METHODS, sendError, sendJson, sendMethodNotAllowed, shown } from './reply.js'
import { pathOf } from './route.js'

/** The body of a count's answer: `facets` only when some were asked for, in the order asked. */
export function countBody(result: CountResult, asked: boolean): string {
  const body: SearchCount = { total: result.total }
  if (asked) body.facets = Object.fromEntries(result.facets.map((f) => [f.name, f.values.map((v): FacetValue => ({ value: v.value, count: v.count }))]))
  return JSON.stringify(body)
}

export function handleSearchCount(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS)
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
  const answer = (run: QueryRun<CountResult>) => {
    if (!run.ok) return sendError(res, run.status, run.message, run.headers)
    sendJson(res, 200, countBody(run.items, given.length > 0))
  }
  const fail = (error: unknown) => {
    if (res.headersSent || res.destroyed) return void res.destroy()
    if (error instanceof SearchLimitError) return sendError(res, 422, `The count is too costly to answer in one request: ${error.message}.`)
    // The store's own words (a database's) stay out of the answer.
    sendError(res, 500, failed('The store failed to count', error))
  }
  try {
    const run = runQuery(ctx, caller, read.query, (options) => ctx.store.count(read.query, { facets }, options), closedSignal(res))
    if (run instanceof Promise) run.then(answer, fail)
    else answer(run)
  } catch (error) {
    fail(error)
  }
}
