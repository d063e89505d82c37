/**
 * The bounded path of every route that runs a query (GET /search, the web view's results, the
 * bulk export, the live stream's filter, and any route that counts a query's matches): the
 * query's cost per event checked against the caller's plan before anything runs (422), a slot
 * among the searches the service runs at once (429 when none is free), the plan's budget of work
 * and a signal that stops the store's work when the client goes away (docs/service.md, "Limits").
 */
import type { ServerResponse } from 'node:http'
import { type Query, queryCost } from '../../query/index.js'
import type { Plan } from '../auth/index.js'
import type { SlotRefusal } from '../ratelimit/index.js'
import type { SearchPage } from '../store/index.js'
import type { SearchOptions } from '../store/search.js'
import type { Caller, ServiceContext } from './context.js'

/** When a slot is refused: the client may try again this soon. */
export const SLOT_RETRY = { 'retry-after': '1', 'x-limited-for': '1s' } as const

/**
 * Undefined when the plan allows the query's cost per event; else the description of the 422:
 * the cost, the costliest term and where it is, the plan's cap.
 */
export function tooCostly(plan: Plan, query: Query): string | undefined {
  const cap = plan.maxQueryCost
  if (cap === null) return undefined
  const cost = queryCost(query)
  if (cost.perEvent <= cap) return undefined
  const worst = cost.costliest!
  const term = query.text.slice(worst.span.offset, worst.span.offset + worst.span.length)
  const shown = term.length > 60 ? `${term.slice(0, 28)}…${term.slice(-28)}` : term
  return (
    `The query costs ${cost.perEvent} work units per event it reads; the ${plan.name} plan allows ${cap} (docs/service.md, "Limits"). ` +
    `Its costliest term, at position ${worst.span.offset + 1} (\`${shown}\`), costs ${worst.cost}: use a smaller pattern, fewer words or fewer fields.`
  )
}

/** The description of a 429 for a refused slot of `what` (searches, bulk exports, live connections). */
export function slotRefused(refusal: SlotRefusal, what: string, perHolder: number, inAll: number, plan: Plan): string {
  return refusal === 'holder'
    ? `The ${plan.name} plan allows ${perHolder} ${what} at once per key (or address), and this caller has that many open: wait for one to end.`
    : `The service runs at most ${inAll} ${what} at once, and that many are running: try again in a moment.`
}

/**
 * A signal that aborts when the answer's connection closes before the answer is complete (the
 * client went away), for the store's work on it.
 */
export function closedSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController()
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'))
  })
  return controller.signal
}

/** What runQuery answers: the store's result, or why it could not run (status and description). */
export type QueryRun<T> = { ok: true; items: T } | { ok: false; status: 422 | 429; message: string; headers?: Record<string, string> }
/** What runSearch answers: a page of events. */
export type SearchRun = QueryRun<Uint8Array[]>

/**
 * Runs `call` (a store read of `query`: a page, a count, …) for `caller` on the bounded path:
 * cost check (422), a search slot (429), the plan's `search_work` and `signal` handed to the
 * store (`SearchOptions`). At once when the store answers at once (a query its indexes answer
 * exactly), else a promise. A SearchLimitError of the store is thrown (or rejected) for the
 * caller to answer (422), as is any other failure. Every route that reads a query's matches
 * (search pages, counts) goes through here.
 */
export function runQuery<T>(ctx: ServiceContext, caller: Caller, query: Query, call: (options: SearchOptions) => T | Promise<T>, signal?: AbortSignal): QueryRun<T> | Promise<QueryRun<T>> {
  const costly = tooCostly(caller.plan, query)
  if (costly !== undefined) return { ok: false, status: 422, message: costly }
  const slot = ctx.slots.searches.take(caller.bucket)
  if (typeof slot === 'string') {
    return { ok: false, status: 429, message: slotRefused(slot, 'searches', Infinity, ctx.slots.searches.max, caller.plan), headers: { ...SLOT_RETRY } }
  }
  let items
  try {
    items = call({ work: caller.plan.searchWork ?? undefined, signal })
  } catch (error) {
    slot()
    throw error
  }
  if (!(items instanceof Promise)) {
    slot()
    return { ok: true, items }
  }
  return items.then(
    (found) => {
      slot()
      return { ok: true, items: found }
    },
    (error: unknown) => {
      slot()
      throw error
    },
  )
}

/** One page of `query` for `caller` on the bounded path (runQuery). */
export const runSearch = (ctx: ServiceContext, caller: Caller, query: Query, page: SearchPage, signal?: AbortSignal): SearchRun | Promise<SearchRun> =>
  runQuery(ctx, caller, query, (options) => ctx.store.search(query, page, options), signal)
