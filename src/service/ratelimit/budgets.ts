/**
 * What one request, one key and the whole service may cost (docs/service.md, "Limits"): the
 * plans' budgets (a query's cost per event, the work of one search and one export, exports and
 * live connections at once per key) and the service's own bounds (costly searches, exports and
 * live connections in all, a stalled export's idle time, a live filter's work per second,
 * PostgreSQL's statement timeouts). Work is counted in the query engine's units (query/cost.ts:
 * about a microsecond of one core each). Read from the configuration by config.ts.
 *
 * The defaults are set against the public service's pace, about one request a second per key:
 * one search may use a fifth of a second of the evaluating thread (anonymous), a second (pro);
 * a pro key's export some minutes of it.
 */

import { type Problem, show } from '../config-reading.js'

/** The budget members of a plan (auth/plans.ts Plan has them). */
export interface PlanBudgets {
  /** Most a query may cost per event it reads (`max_query_cost`); null = no cap. Above it: 422 before anything runs. */
  maxQueryCost: number | null
  /** Work one search request may do (`search_work`: events read × their cost); null = no bound. Past it: 422. */
  searchWork: number | null
  /** Work one bulk export may do (`export_work`); null = no bound. Past it the export is cut. */
  exportWork: number | null
  /** Bulk exports one key (the anonymous plan: one client address) may run at once (`bulk_exports`); 429 beyond. */
  bulkExports: number
  /** Live-stream connections one key (or address) may hold at once (`live_connections`); 429 beyond. */
  liveConnections: number
}

/** The service's own bounds, whoever asks. */
export interface ServiceLimits {
  /** Searches that evaluate events, running or waiting, in all (`max_searches`); 429 beyond. */
  maxSearches: number
  /** Bulk exports at once, in all (`max_bulk_exports`); 429 beyond. */
  maxBulkExports: number
  /** An export whose client took no bytes for this long is cut (`bulk_idle_timeout_ms`). */
  bulkIdleMs: number
  /** Live-stream connections in all (`max_live_connections`); 429 beyond. */
  maxLiveConnections: number
  /** Work a live subscriber's filter may do per second, on average over LIVE_WINDOW_S (`live_filter_work`); past it: 1013. */
  liveFilterWork: number
  /** PostgreSQL: the timeout of every statement (`statement_timeout_ms`; migrations excepted). */
  statementTimeoutMs: number
  /** PostgreSQL: the timeout of one search page's statement (`search_timeout_ms`); past it: 422. */
  searchTimeoutMs: number
}

/** Seconds of filter work a live subscriber may do ahead of its average (the burst of its budget). */
export const LIVE_WINDOW_S = 10

export const DEFAULT_LIMITS: Readonly<ServiceLimits> = Object.freeze({
  maxSearches: 16,
  maxBulkExports: 8,
  bulkIdleMs: 30_000,
  maxLiveConnections: 256,
  liveFilterWork: 100_000,
  statementTimeoutMs: 30_000,
  searchTimeoutMs: 5_000,
})

/** Defaults per plan: anonymous, registered, pro. */
export const DEFAULT_PLAN_BUDGETS: Readonly<Record<'anonymous' | 'registered' | 'pro', Readonly<PlanBudgets>>> = Object.freeze({
  anonymous: { maxQueryCost: 1_000, searchWork: 200_000, exportWork: 20_000_000, bulkExports: 1, liveConnections: 2 },
  registered: { maxQueryCost: 2_000, searchWork: 500_000, exportWork: 50_000_000, bulkExports: 1, liveConnections: 2 },
  pro: { maxQueryCost: 5_000, searchWork: 2_000_000, exportWork: 200_000_000, bulkExports: 2, liveConnections: 4 },
})

/** Top-level members and what they set. */
const LIMIT_MEMBERS: readonly (readonly [string, keyof ServiceLimits, number, string])[] = [
  ['max_searches', 'maxSearches', 1, 'searches that evaluate events, running or waiting, in all'],
  ['max_bulk_exports', 'maxBulkExports', 1, 'bulk exports at once, in all'],
  ['bulk_idle_timeout_ms', 'bulkIdleMs', 1_000, 'milliseconds a stalled bulk export is kept'],
  ['max_live_connections', 'maxLiveConnections', 1, 'live-stream connections in all'],
  ['live_filter_work', 'liveFilterWork', 1, "work units per second a live subscriber's filter may do"],
  ['statement_timeout_ms', 'statementTimeoutMs', 100, 'milliseconds any PostgreSQL statement may run'],
  ['search_timeout_ms', 'searchTimeoutMs', 100, 'milliseconds a PostgreSQL search page may run'],
]

/** The members config.ts accepts at the top of the file. */
export const LIMIT_NAMES: readonly string[] = LIMIT_MEMBERS.map(([name]) => name)
/** The members config.ts accepts in a plan. */
export const PLAN_BUDGET_NAMES: readonly string[] = ['max_query_cost', 'search_work', 'export_work', 'bulk_exports', 'live_connections']

/** The service's bounds from the configuration's top-level members (defaults for those absent; wrong ones reported). */
export function readLimits(doc: Record<string, unknown>, problem: Problem): ServiceLimits {
  const limits: ServiceLimits = { ...DEFAULT_LIMITS }
  for (const [name, key, least, what] of LIMIT_MEMBERS) {
    const v = doc[name]
    if (v === undefined) continue
    if (Number.isSafeInteger(v) && (v as number) >= least) limits[key] = v as number
    else problem(`/${name}`, `must be an integer ≥ ${least}: ${what} (got ${show(v)})`)
  }
  return limits
}

/** Sets a plan's budgets from its members at `at` (what is not given keeps its value). */
export function readPlanBudgets(spec: Record<string, unknown>, plan: PlanBudgets, at: string, problem: Problem): void {
  const capped = [
    ['max_query_cost', 'maxQueryCost', 'the most a query may cost per event it reads'],
    ['search_work', 'searchWork', 'the work one search may do'],
    ['export_work', 'exportWork', 'the work one bulk export may do'],
  ] as const
  for (const [name, key, what] of capped) {
    const v = spec[name]
    if (v === undefined) continue
    if (v === null) plan[key] = null
    else if (Number.isSafeInteger(v) && (v as number) >= 1) plan[key] = v as number
    else problem(`${at}/${name}`, `must be an integer ≥ 1 (${what}, in work units: docs/service.md "Limits"), or null for no bound (got ${show(v)})`)
  }
  for (const [name, key, what] of [['bulk_exports', 'bulkExports', 'bulk exports'], ['live_connections', 'liveConnections', 'live-stream connections']] as const) {
    const v = spec[name]
    if (v === undefined) continue
    if (Number.isSafeInteger(v) && (v as number) >= 0) plan[key] = v as number
    else problem(`${at}/${name}`, `must be an integer ≥ 0: the ${what} one key may have at once (got ${show(v)})`)
  }
}
