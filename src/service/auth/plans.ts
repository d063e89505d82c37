/** Plans: what a caller may do, by the plan its key belongs to (anonymous without a key). */
import { DEFAULT_PLAN_BUDGETS, type PlanBudgets } from '../ratelimit/budgets.js'
import type { RateRule } from '../ratelimit/index.js'

export const PLAN_NAMES = ['anonymous', 'registered', 'pro'] as const
export type PlanName = (typeof PLAN_NAMES)[number]
/** Plans a key can have (anonymous is the absence of a key). */
export const KEY_PLANS = ['registered', 'pro'] as const satisfies readonly PlanName[]
export type KeyPlan = (typeof KEY_PLANS)[number]

/** A plan's limits; its budgets (a query's cost, a search's and an export's work, exports and live connections at once) are ratelimit/budgets.ts's. */
export interface Plan extends PlanBudgets {
  name: PlanName
  /** Most subdomain entries one answer holds; null = no cap. */
  subdomains: number | null
  /** Request rate; null = not limited. */
  rate: RateRule | null
  /** Most watched resources one key of the plan may have; null = no cap. */
  resources: number | null
  /** Most hooks one key of the plan may have (hooks need a pro key anyway); null = no cap. */
  hooks: number | null
  /** May subscribe to the live stream (/ws/service, /ws/leak). */
  live: boolean
  /** May use the bulk export (/bulk/search, /bulk/service). */
  bulk: boolean
  /** Pages of GET /search a key of the plan may read (pages 0 … searchPages-1); null = no cap. */
  searchPages: number | null
}

/**
 * Defaults: about one request per second for everyone (the public API's limit) with a
 * burst of 2; subdomain answers capped at 10 (anonymous) and 100 (registered), pro uncapped;
 * watched resources per key 100 (registered) and 10 000 (pro), hooks per pro key 50; the live
 * stream and the bulk export for pro keys only (like alert hooks: a feed of every new event, every
 * match); search pages (20 events each by default) 5 anonymous (100 events), 50 registered (1 000)
 * and 500 pro (10 000, the depth the real service's Elasticsearch pages reach).
 */
export const DEFAULT_PLANS: Readonly<Record<PlanName, Plan>> = Object.freeze({
  anonymous: { name: 'anonymous', subdomains: 10, rate: { rate: 1, burst: 2 }, resources: 0, hooks: 0, live: false, bulk: false, searchPages: 5, ...DEFAULT_PLAN_BUDGETS.anonymous },
  registered: { name: 'registered', subdomains: 100, rate: { rate: 1, burst: 2 }, resources: 100, hooks: 0, live: false, bulk: false, searchPages: 50, ...DEFAULT_PLAN_BUDGETS.registered },
  pro: { name: 'pro', subdomains: null, rate: { rate: 1, burst: 2 }, resources: 10_000, hooks: 50, live: true, bulk: true, searchPages: 500, ...DEFAULT_PLAN_BUDGETS.pro },
})
