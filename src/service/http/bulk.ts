/**
 * GET /bulk/search?q= and GET /bulk/service?q= (docs/service.md, "Bulk export"): every leak
 * matching the query as one aggregation per resource per line, or every service event matching
 * it, one per line; JSON Lines (`application/x-ndjson`), streamed with backpressure from the
 * store, 204 when nothing matches. Checks in the lookups' order: method, accept, key (401), rate
 * limit (429, one token per export), plan (403, the plan's `bulk` member), query (400), its cost
 * per event (422), exports at once for the key and in all (429). The export runs within the plan's
 * `export_work`, stops the store's work when the client goes away, and is cut when the client
 * takes nothing for `bulk_idle_timeout_ms` (docs/service.md, "Limits").
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { exportLines } from '../aggregate/export-thread.js'
import { nowInstant, SearchLimitError } from '../store/index.js'
import { readQuery } from './query-param.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { closedSignal, SLOT_RETRY, slotRefused, tooCostly } from './costly.js'
import { weightOf } from './negotiate.js'
import { failed, READ_METHODS, sendError, sendMethodNotAllowed, shown } from './reply.js'
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
  const costly = tooCostly(caller.plan, parsed.query)
  if (costly !== undefined) return sendError(res, 422, costly)
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'content-type': NDJSON_TYPE, 'cache-control': 'no-store' })
    return void res.end()
  }
  const slot = ctx.slots.exports.take(caller.bucket, caller.plan.bulkExports)
  if (typeof slot === 'string') return sendError(res, 429, slotRefused(slot, 'bulk exports', caller.plan.bulkExports, ctx.slots.exports.max, caller.plan), SLOT_RETRY)
  const options = { batch: BATCH, work: caller.plan.exportWork ?? undefined, signal: closedSignal(res) }
  const records = scope === 'leak' ? exportLines(ctx.store.searchByResource(parsed.query, options), nowInstant()) : ctx.store.searchAll(parsed.query, options)
  streamLines(res, records, ctx.config.limits.bulkIdleMs)
    .catch((error: unknown) => {
      if (res.headersSent || res.destroyed) return void res.destroy()
      if (error instanceof SearchLimitError) sendError(res, 422, `The export is too costly: ${error.message}.`)
      else sendError(res, 500, failed('The store failed', error))
    })
    .finally(slot)
}
