/**
 * GET /bulk/search?q= and GET /bulk/service?q= (docs/service.md, "Bulk export"): every leak
 * matching the query as one aggregation per resource per line, or every service event matching
 * it, one per line; JSON Lines (`application/x-ndjson`), streamed with backpressure from the
 * store, 204 when nothing matches. Checks in the lookups' order: method, accept, key (401), rate
 * limit (429, one token per export), plan (403, the plan's `bulk` member), query (400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { exportLines } from '../aggregate/export-thread.js'
import { nowInstant } from '../store/index.js'
import { readQuery } from './query-param.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { weightOf } from './negotiate.js'
import { READ_METHODS, sendError, sendMethodNotAllowed, shown } from './reply.js'
import { pathOf } from './route.js'
import { NDJSON_TYPE, streamLines } from './stream-lines.js'

/** Events read from the store per step. */
const BATCH = 1000

export function handleBulk(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, which: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS)
  const accept = req.headers.accept
  // LeakIX's Python client sends `accept: application/json` here: JSON and JSON Lines both do.
  if (accept !== undefined && weightOf(accept, 'application', 'x-ndjson') === 0 && weightOf(accept, 'application', 'json') === 0) {
    return sendError(res, 406, `The answer is ${NDJSON_TYPE} (JSON Lines), which the accept header (${shown(accept)}) does not allow.`)
  }
  const caller = identify(ctx, req, res)
  if (caller === undefined || !withinLimit(ctx, caller, res)) return
  if (!caller.plan.bulk) {
    const which = Object.values(ctx.config.plans).filter((p) => p.bulk).map((p) => p.name)
    return sendError(res, 403, `The bulk export is for ${which.length > 0 ? which.join(' and ') + ' keys' : 'no plan here'}; this caller's plan is ${caller.plan.name}.`)
  }
  const scope = which === 'search' ? 'leak' : 'service'
  const parsed = readQuery(req.url ?? '/', { scope })
  if (!parsed.ok) return sendError(res, 400, parsed.message)
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'content-type': NDJSON_TYPE, 'cache-control': 'no-store' })
    return void res.end()
  }
  const records =
    scope === 'leak' ? exportLines(ctx.store.searchByResource(parsed.query, { batch: BATCH }), nowInstant()) : ctx.store.searchAll(parsed.query, { batch: BATCH })
  streamLines(res, records).catch((error: unknown) => {
    if (!res.headersSent) sendError(res, 500, `The store failed: ${(error as Error).message}`)
    else res.destroy()
  })
}
