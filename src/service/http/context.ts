/** Everything a request handler needs, built once per running service. */
import { KeyRing, type Plan } from '../auth/index.js'
import type { ServiceConfig } from '../config.js'
import { type LimiterOptions, RateLimiter, Slots } from '../ratelimit/index.js'
import type { Store } from '../store/index.js'
import type { Dispatcher, HookStore, Resolver } from '../hooks/index.js'
import { fallbackPriority, launcherFor } from '../ingest/worker-priority.js'
import { LiveHub } from '../live/hub.js'
import { sharedEvalThread } from '../search/eval-thread.js'
import { ANSWER_CACHE_LIMITS, AnswerCache } from './answer-cache.js'

export interface ServiceContext {
  store: Store
  config: ServiceConfig
  keys: KeyRing
  limiter: RateLimiter
  /** Finished /host and /domain answers, for a store with a `version` (answer-cache.ts). */
  answers: { host: AnswerCache; domain: AnswerCache }
  /** The hook registry and queue, its dispatcher, and how hook URLs are resolved (set by startService; absent = hook routes answer 404). */
  hooks?: HookApi
  /** The live stream's subscribers (/ws/service, /ws/leak). */
  live: LiveHub
  /** What is held at once, per key and in all (docs/service.md, "Limits"): searches, bulk exports, live connections. */
  slots: { searches: Slots; exports: Slots; live: Slots }
}

export interface HookApi {
  store: HookStore
  dispatcher: Dispatcher
  resolve?: Resolver
}

export function createContext(store: Store, config: ServiceConfig, limiter: LimiterOptions = {}): ServiceContext {
  // A kept /host answer outlives other addresses' ingests where the store can tell (hostVersion).
  const hostVersion = store.hostVersion?.bind(store)
  const stillRight = hostVersion && ((ip: string, builtAt: number) => hostVersion(ip) <= builtAt)
  const answers = { host: new AnswerCache(ANSWER_CACHE_LIMITS, stillRight), domain: new AnswerCache() }
  // The live stream's fan-out process runs in the idle class: delivery gets the CPU the service leaves.
  const live = new LiveHub(store, { maxBufferedBytes: config.liveBufferBytes, filterWork: config.limits.liveFilterWork, launcher: launcherFor(fallbackPriority().priority) })
  // A store that evaluates queries in this process does it on the evaluation thread, at the ingest workers' priority.
  store.useEvaluator?.(sharedEvalThread(config.ingestWorkerPriority))
  store.useLookupCache?.(config.lookupCacheBytes)
  const { maxSearches, maxBulkExports, maxLiveConnections } = config.limits
  const slots = { searches: new Slots(maxSearches), exports: new Slots(maxBulkExports), live: new Slots(maxLiveConnections) }
  return { store, config, keys: new KeyRing(config.keys), limiter: new RateLimiter(limiter), answers, live, slots }
}

/** Who is asking: the plan to apply and the rate-limit bucket to charge. */
export interface Caller {
  readonly plan: Plan
  readonly bucket: string
}
