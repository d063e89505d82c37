export { lookupBody, searchBody, subdomainsBody } from './body.js'
export { DEFAULT_SCAN_LIMIT, DEFAULT_SEARCH_TIMEOUT_MS, type SearchAllOptions, SearchLimitError, type SearchPage } from './search.js'
export type { EvalBatch, Evaluator } from './evaluator.js'
export { MemoryStore, type MemoryStoreOptions } from './memory/store.js'
export { canonicalFields, type CanonicalFields } from './canonical-fields.js'
export { identityOf, JsonText, jsonOf, KEPT_AS_SENT, prepare, type Prepared, type PrepareResult } from './prepare.js'
export type {
  Awaitable,
  BatchedIterable,
  IngestedEvent,
  IngestListener,
  IngestResult,
  Lookup,
  NewEvent,
  NewEventFeed,
  NewEventListener,
  PluginCount,
  SeenEvent,
  SeenLookup,
  Store,
  StoreFactory,
} from './types.js'
export { nowInstant, PLUGIN_WINDOWS } from './plugin-windows.js'
