/**
 * The store behind the lookup service: what every implementation offers. Lookups take any
 * spelling of an IP or name and answer null when the text is not one (the HTTP layer turns
 * that into 400). Events come back as the bytes of their canonical JSON, so an answer is built
 * by concatenation (see body.ts), never by re-serialising.
 */
import type { Event, SubdomainEntry } from '../../schema/index.js'
import type { Instant } from '../../time/index.js'
import type { Issue } from '../../validate/index.js'
import type { Query } from '../../query/index.js'
import type { PrepareResult } from './prepare.js'
import type { SearchAllOptions, SearchOptions, SearchPage } from './search.js'
import type { Evaluator } from './evaluator.js'
import type { CountRequest, CountResult } from './count.js'

/** A value or a promise of it: in-memory stores answer at once, others may not. */
export type Awaitable<T> = T | Promise<T>

/**
 * Events found for a host or domain, split by `event_type` (`service` → services, `leak` →
 * leaks; the store refuses other types), each as the UTF-8 bytes of its canonical JSON.
 */
export interface Lookup {
  services: readonly Uint8Array[]
  leaks: readonly Uint8Array[]
}

/**
 * An AsyncIterable that can also be read a batch at a time: the same items, in the same order,
 * with one await per batch instead of one per item (the bulk export reads the memory store so).
 */
export interface BatchedIterable<T> extends AsyncIterable<T> {
  batches(): AsyncIterable<T[]>
}

/**
 * An event with the times its identity was observed: `firstSeen` the earliest `time` of any
 * observation, `lastSeen` the latest (canonical RFC 3339 text). A re-observation moves only
 * `lastSeen` (or `firstSeen`, if it is earlier than every observation so far).
 */
export interface SeenEvent {
  json: Uint8Array
  firstSeen: string
  lastSeen: string
  /** The same two times as instants, where the store has them (the bulk export compares them). */
  first?: Instant
  last?: Instant
}

/** A lookup with first and last seen times, for the web view. */
export interface SeenLookup {
  services: readonly SeenEvent[]
  leaks: readonly SeenEvent[]
}

export interface IngestResult {
  /** Events stored as new. */
  accepted: number
  /** Events that matched one already stored (same fingerprint, host, ip, port, source). */
  duplicates: number
  /** Documents refused, by their position in the batch (0-based), with the reasons. */
  rejected: { index: number; errors: Issue[] }[]
}

/** What a listener (alert hooks, later) hears about each valid ingested event. */
export interface IngestedEvent {
  event: Event
  /** Canonical JSON of the event as stored. */
  json: string
  /** True when it matched a stored event (whose last-seen time may have moved). */
  duplicate: boolean
}

export type IngestListener = (item: IngestedEvent) => void

/**
 * One plugin (an `event_source` seen in stored events) with its distinct events counted by their
 * `time` (plugin-windows.ts): each event once, when it is first stored, by the time of the copy
 * stored then; duplicates add nothing, so loading the same data twice changes no count.
 */
export interface PluginCount {
  name: string
  /** Events whose time is in the current minute or the 59 before it (UTC). */
  count1h: number
  /** In the current hour or the 23 before it. */
  count24h: number
  /** In the current hour or the 167 before it. */
  count7d: number
}

/** An event stored as new, as a live-stream listener hears it (Store.onNewEvent). */
export interface NewEvent {
  /** Its canonical JSON as UTF-8 (may be a view of the store's memory: copy it to keep it). */
  bytes: Uint8Array
  /** `event_type` is `leak` (else `service`). */
  leak: boolean
  /** The event as an object, parsed on first call (only a query filter needs it). */
  event(): Event
}

export type NewEventListener = (item: NewEvent) => void

/** A listener's subscription to new events. */
export interface NewEventFeed {
  /** Resolves once every event stored from then on reaches the listener (PostgreSQL: LISTEN is in place). */
  ready: Promise<void>
  stop(): void
}

export interface Store {
  /**
   * Normalises and validates (strict) each document, then stores it; a document that fails
   * is reported in `rejected` with its reasons, never dropped silently. A document may be a
   * parsed value or a `JsonText` (see prepare.ts): canonical text is stored without parsing.
   */
  ingest(docs: Iterable<unknown>): Awaitable<IngestResult>
  /**
   * Optional: stores documents already prepared with prepare.ts (a large ingest prepares them
   * on a worker thread), accepting, refusing and de-duplicating exactly as ingest() would the
   * documents they came from, in order. Stores without it get every document through ingest().
   * A result may carry its JSON as `utf8` only (`json` is then KEPT_AS_SENT): read it with jsonOf().
   */
  ingestPrepared?(items: readonly PrepareResult[]): Awaitable<IngestResult>
  /** Events whose IP is `ip` (any spelling); null when `ip` is not an IP address. */
  host(ip: string): Awaitable<Lookup | null>
  /** Events whose host is `name` or a subdomain of it; null when `name` is not a domain name. */
  domain(name: string): Awaitable<Lookup | null>
  /**
   * Names below `name` (not `name` itself), most recently seen first, at most `limit`
   * (undefined = all); null when `name` is not a domain name.
   */
  subdomains(name: string, limit?: number): Awaitable<SubdomainEntry[] | null>
  /** As host(), with first and last seen times (the web view). */
  hostSeen(ip: string): Awaitable<SeenLookup | null>
  /** As domain(), with first and last seen times (the web view). */
  domainSeen(name: string): Awaitable<SeenLookup | null>
  /**
   * One page of the events `query` matches in its scope (`service` or `leak` events; `any`:
   * both), newest first: by last seen time (the kept observation's `time`), ties by a stored
   * id, so pages neither overlap nor skip while nothing is ingested. Each event as the bytes of
   * its canonical JSON (searchBody() makes the answer). Throws SearchLimitError when the page
   * would cost more than one request may (a query no index narrows: docs/search.md), within
   * `options.work`; `options.signal` stops it (the client went away).
   */
  search(query: Query, page: SearchPage, options?: SearchOptions): Awaitable<Uint8Array[]>
  /**
   * How many events `query` matches in its scope (search()'s matches, all pages), and for each
   * facet asked for its most frequent values among them (GET /search/count). Bounded as search()
   * is (SearchLimitError; `options`: the request's work budget and signal), and by the request's
   * limit on a facet's distinct values.
   */
  count(query: Query, request: CountRequest, options?: SearchOptions): Awaitable<CountResult>
  /**
   * Every event `query` matches, in search()'s order, read in steps so that memory stays
   * bounded whatever the count (bulk export); no per-page scan limit, but `options.work` and
   * `options.signal` as for search() (a SearchLimitError or the signal's reason ends it).
   */
  searchAll(query: Query, options?: SearchAllOptions): AsyncIterable<Uint8Array>
  /**
   * Every event `query` matches, with its first and last seen times, the events of one resource
   * (aggregate/resource.ts: the canonical address, else the host name) one after the other, so a
   * reader can make one aggregation per resource holding only that resource's events (the bulk
   * export, GET /bulk/search). Resources come in no promised order, nor do events within one.
   * Read in steps like searchAll(); memory stays bounded (docs/service.md, "Bulk export").
   */
  searchByResource(query: Query, options?: SearchAllOptions): AsyncIterable<SeenEvent>
  /**
   * Optional: a store that evaluates queries in the service's own process (the memory store)
   * hands the events a search must evaluate to `evaluator` (a worker thread: the service gives
   * one, so that costly evaluation never runs on the thread that answers lookups).
   */
  useEvaluator?(evaluator: Evaluator | undefined): void
  /** Stored leak events by `leak.severity` ('' counted under ''), for the web view's index page. */
  severityCounts(): Awaitable<Record<string, number>>
  /** Number of stored events. */
  readonly size: number
  /**
   * Optional: a number that changes whenever an ingest stores anything (so any answer may have
   * changed). The HTTP layer reuses a lookup's answer bytes while it stays the same; a store
   * without it (one that others may write to) is asked every time.
   */
  readonly version?: number
  /**
   * Optional, beside `version`: the version at which anything was last stored for address `ip`
   * (canonical, as canonicalIp gives it), 0 if nothing ever was. A /host answer built at version
   * v stays right while this is at most v, whatever else was ingested meanwhile.
   */
  hostVersion?(ip: string): number
  /**
   * Optional: sets how many bytes of lookup answers the store keeps (0 = none); the service
   * calls it with its `lookup_cache_bytes`. A store that keeps answers anyway has no need of it.
   */
  useLookupCache?(bytes: number): void
  /**
   * Deletes every stored event whose `tags` hold `tag` exactly (DELETE /admin/events?tag=…, how
   * a conformance run removes what it ingested); returns how many were deleted.
   */
  deleteTagged(tag: string): Awaitable<number>
  /** Calls `listener` after each valid ingested event; returns the function that stops it. */
  onIngest(listener: IngestListener): () => void
  /**
   * Calls `listener` with every event stored as new, in the order stored: by this process, and,
   * for a store other processes write to (PostgreSQL), by those too. A store does the work this
   * needs (PostgreSQL: LISTEN, and reading the new rows) only while a listener is attached.
   */
  onNewEvent(listener: NewEventListener): NewEventFeed
  /**
   * Every plugin seen (an `event_source` of a stored event; '' is none), by name in byte order,
   * with its counts for the windows ending at `now` (nanoseconds since the Unix epoch, not earlier
   * than the last ingest: counts are kept for windows that end now, see plugin-windows.ts).
   */
  plugins(now: Instant): Awaitable<PluginCount[]>
  /** One plugin's counts, as plugins() gives them; null when no stored event has that source. */
  plugin(name: string, now: Instant): Awaitable<PluginCount | null>
}

/** Makes a fresh, empty store (for the shared case suite). */
export type StoreFactory = () => Store
