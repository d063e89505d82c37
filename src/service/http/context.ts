/** Everything a request handler needs, built once per running service. */
import { KeyRing, type Plan } from '../auth/index.js'
import type { ServiceConfig } from '../config.js'
import { type LimiterOptions, RateLimiter } from '../ratelimit/index.js'
import type { Store } from '../store/index.js'
import type { Dispatcher, HookStore, Resolver } from '../hooks/index.js'
import { fallbackPriority, launcherFor } from '../ingest/worker-priority.js'
import { LiveHub } from '../live/hub.js'
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
  const live = new LiveHub(store, { maxBufferedBytes: config.liveBufferBytes, launcher: launcherFor(fallbackPriority().priority) })
  return { store, config, keys: new KeyRing(config.keys), limiter: new RateLimiter(limiter), answers, live }
}

/** Who is asking: the plan to apply and the rate-limit bucket to charge. */
export interface Caller {
  plan: Plan
  bucket: string
}
