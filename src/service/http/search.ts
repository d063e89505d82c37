/**
 * GET /search?scope=service|leak&q=QUERY&page=N: one page of the events the query matches,
 * newest first (docs/search.md, "The route"). Checks in the lookups' order: method, accept,
 * key (401), rate limit (429, one token per page like a lookup), parameters (400: scope, query,
 * page), the plan's page cap (403), then the bounded path (costly.ts): a query whose cost per
 * event is above the plan's, or a search that does the plan's work without finishing, is 422;
 * no free search slot is 429. A page past the last is `200 []`, which LeakIX's clients read as
 * the end.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { searchBody } from '../store/index.js'
import { SearchLimitError } from '../store/search.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { acceptsJson } from './lookups.js'
import { headerSafe, readingOf } from '../../query/index.js'
import { readQuery } from './query-param.js'
import { closedSignal, runSearch, type SearchRun } from './costly.js'
import { failed, READ_METHODS, sendError, sendJson, sendMethodNotAllowed, shown, VARY_ACCEPT } from './reply.js'
import { pathOf } from './route.js'

/** Largest page number read (beyond any sensible cap, and offset × size stays a safe integer). */
export const MAX_PAGE = 1_000_000

export function handleSearch(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): void {
  // The web view answers browsers at /search too: every answer varies by accept.
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS, VARY_ACCEPT)
  const accept = req.headers.accept
  if (accept !== undefined && !acceptsJson(accept)) {
    return sendError(res, 406, `The answer is application/json, which the accept header (${shown(accept)}) does not allow.`, VARY_ACCEPT)
  }
  const caller = identify(ctx, req, res, VARY_ACCEPT)
  if (caller === undefined || !withinLimit(ctx, caller, res, VARY_ACCEPT)) return
  const read = readQuery(req.url ?? '/')
  if (!read.ok) return sendError(res, 400, read.message, VARY_ACCEPT)
  const page = readPage(read.params.get('page'))
  if (typeof page === 'string') return sendError(res, 400, page, VARY_ACCEPT)
  const cap = caller.plan.searchPages
  if (cap !== null && page >= cap) {
    const reason =
      cap === 0
        ? `The ${caller.plan.name} plan may not search.`
        : `The ${caller.plan.name} plan may read search pages 0 to ${cap - 1} (${cap * ctx.config.searchPageSize} events); page ${page} is beyond them.`
    return sendError(res, 403, `${reason} Narrow the query, or use a key of a plan with more pages.`, VARY_ACCEPT)
  }
  // Words that look like operators keep LeakIX's meaning; the answer says how they were read.
  const notes = readingOf(read.query).notes
  if (notes.length > 0) res.setHeader('x-query-notice', notes.map((n) => headerSafe(`position ${n.offset + 1}: ${n.message}`)))
  const size = ctx.config.searchPageSize
  const answer = (run: SearchRun) => {
    if (run.ok) return sendJson(res, 200, searchBody(run.items), VARY_ACCEPT)
    sendError(res, run.status, run.message, { ...run.headers, ...VARY_ACCEPT })
  }
  const fail = (error: unknown) => {
    if (res.headersSent || res.destroyed) return void res.destroy()
    if (error instanceof SearchLimitError) {
      return sendError(res, 422, `The query is too costly to answer in one request: ${error.message}.`, VARY_ACCEPT)
    }
    sendError(res, 500, failed('The store failed', error), VARY_ACCEPT)
  }
  try {
    const run = runSearch(ctx, caller, read.query, { offset: page * size, limit: size }, closedSignal(res))
    if (run instanceof Promise) run.then(answer, fail)
    else answer(run)
  } catch (error) {
    fail(error)
  }
}

/** The page number (absent: 0), or why it is wrong. */
function readPage(text: string | null): number | string {
  if (text === null) return 0
  if (/^[0-9]{1,7}$/.test(text) && Number(text) <= MAX_PAGE) return Number(text)
  return `The page parameter must be an integer from 0 to ${MAX_PAGE} (pages count from 0; got ${shown(text.slice(0, 40))}).`
}
