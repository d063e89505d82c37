export {
  DEFAULT_DELIVERY,
  DEFAULT_RETRY_SCHEDULE_MS,
  type DeliverySettings,
  Dispatcher,
  type DispatcherOptions,
  formatSpan,
  retryDelay,
  scheduleSpanMs,
  type Timers,
} from './dispatcher.js'
export { type Attempt, type AttemptResult, deliver, type DeliverOptions, hookUserAgent, parseRetryAfter } from './deliver.js'
export {
  canonicalResource,
  CONFORM_RUN_PARAMETER,
  CONFORM_TAG_PREFIX,
  covers,
  eventRuns,
  hookRun,
  sameRun,
  selectHooks,
  severityRank,
  type Subject,
  subjectOf,
  wants,
} from './match.js'
export { createHookIndex, MatchIndex } from './match-index.js'
export { DEFAULT_HISTORY_LIMIT, DEFAULT_QUEUE_LIMIT, MemoryHookStore, type MemoryHookStoreOptions, type RegistryChange } from '../store/memory/hook-store.js'
export { type DeclaredHooks, missingDeclared } from '../store/declared-hooks.js'
export { queueIngested } from './queue-ingested.js'
export { addressProblem, guardedLookup, type GuardOptions, type Resolver, systemResolver, urlProblem, urlShapeProblem } from './ssrf.js'
export type * from '../store/hook-types.js'
export { LimitReached } from '../store/hook-types.js'
