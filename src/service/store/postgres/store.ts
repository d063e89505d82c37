/**
 * The PostgreSQL store: the same Store as the memory one, kept in the `events` table
 * (migrations/postgres/). Ingest stages each batch with COPY and merges it with one
 * INSERT … ON CONFLICT; each lookup is one indexed query whose rows come back as the stored
 * bytes (the driver's raw mode), concatenated into the answer without re-serialising.
 */
import type { Sql } from 'postgres'
import type { Event, SubdomainEntry } from '../../../schema/index.js'
import type { Instant } from '../../../time/index.js'
import { jsonOf, prepare, type Prepared, type PrepareResult } from '../prepare.js'
import { nowInstant } from '../plugin-windows.js'
import type { Awaitable, IngestListener, IngestResult, Lookup, NewEventFeed, NewEventListener, PluginCount, SeenEvent, SeenLookup, Store } from '../types.js'
import type { Query } from '../../../query/index.js'
import type { SearchAllOptions, SearchOptions, SearchPage } from '../search.js'
import { connect } from './connect.js'
import { PostgresSearch } from './searching.js'
import type { CountRequest, CountResult } from '../count.js'
import { migrate } from './migrations.js'
import { type Changed, changedRows, notifyChanged } from './changes.js'
import { DEFAULT_LOOKUP_CACHE_BYTES, PostgresLookups } from './lookups.js'
import { addressKey } from './lookup-cache.js'
import { deleteTagged } from './tagged.js'
import { NewEventFeeds, newEventsChannel, notifyAdded } from './new-events.js'
import { countAdded, pruneCounts, readPlugins } from './plugin-counts.js'
import { withRetry } from './retry.js'
import { severityCountsOf } from './summaries.js'
import { copyBinary, foldBatch, MERGE_STAGED, STAGE_TABLE, writeAll } from './rows.js'
import { DEFAULT_STATEMENT_TIMEOUT_MS, type IngestHook, type PostgresStoreOptions } from './store-options.js'

export type { IngestHook, PostgresStoreOptions } from './store-options.js'

/**
 * Most documents staged in one transaction. (Smaller transactions prepared while the previous
 * one merges were measured too: slower, as the two cores were busy either way.)
 */
const MAX_BATCH = 5_000
/** How often (at most) a process drops plugin count buckets that can no longer count. */
const PRUNE_MS = 10 * 60_000

export class PostgresStore implements Store {
  readonly sql: Sql
  readonly schema: string
  private readonly opening: Promise<void>
  private stored = 0
  private readonly listeners = new Set<IngestListener>()
  private readonly ingestHooks = new Set<IngestHook>()
  /** Searches and bulk reads, on a pool of their own (searching.ts). */
  private readonly searches: PostgresSearch
  /** The NOTIFY channel of new events, and this process's listeners of it. */
  private readonly channel: string
  private readonly newEvents: NewEventFeeds
  private prunedAt = 0
  /** Host, domain and subdomain lookups, and the answers kept of them (lookups.ts). */
  readonly lookups: PostgresLookups

  /**
   * Connects lazily and applies pending migrations; every method waits for that. Use
   * `PostgresStore.open` to wait for it (and see its errors) up front.
   */
  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.schema = options.schema ?? 'public'
    this.sql = connect(url, { schema: this.schema, max: options.max, statementTimeoutMs: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS })
    this.opening = this.open()
    this.opening.catch(() => {}) // reported by the first call that waits for it
    this.searches = new PostgresSearch(url, options, this.opening)
    this.channel = newEventsChannel(this.schema)
    this.newEvents = new NewEventFeeds(this.sql, this.channel, this.opening)
    this.lookups = new PostgresLookups(this.sql, url, this.schema, this.opening, options.lookupCacheBytes ?? DEFAULT_LOOKUP_CACHE_BYTES)
  }

  /** A store whose schema is migrated and whose size is known. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, options)
    try {
      await store.ready()
    } catch (error) {
      await store.close()
      throw error
    }
    return store
  }

  private async open(): Promise<void> {
    await migrate(this.sql, this.schema)
    const [row] = await this.sql<{ n: string }[]>`SELECT count(*) AS n FROM events`
    this.stored = Number(row!.n)
  }

  /** Resolves once the schema is migrated; rejects with the reason it could not be. */
  ready(): Promise<void> {
    return this.opening
  }

  /** Closes the pool (queries in flight finish first, for at most `timeoutSeconds`). */
  async close(timeoutSeconds = 5): Promise<void> {
    await Promise.all([this.newEvents.close(), this.lookups.close()])
    await Promise.all([this.searches.close(timeoutSeconds), this.sql.end({ timeout: timeoutSeconds })])
  }

  /**
   * Events stored: counted at start and kept up to date by this process's ingests. Another
   * process's ingests show up at the next `refreshSize()`.
   */
  get size(): number {
    return this.stored
  }

  /** Counts the stored events again (after other processes ingested). */
  async refreshSize(): Promise<number> {
    await this.opening
    const [row] = await this.sql<{ n: string }[]>`SELECT count(*) AS n FROM events`
    this.stored = Number(row!.n)
    return this.stored
  }

  /** Runs `hook` inside every ingest transaction; returns the function that stops it. */
  addIngestHook(hook: IngestHook): () => void {
    this.ingestHooks.add(hook)
    return () => this.ingestHooks.delete(hook)
  }

  async ingest(docs: Iterable<unknown>): Promise<IngestResult> {
    await this.opening
    const result: IngestResult = { accepted: 0, duplicates: 0, rejected: [] }
    let batch: Prepared[] = []
    let index = 0
    for (const doc of docs) {
      const prepared = prepare(doc)
      if (!prepared.ok) result.rejected.push({ index, errors: prepared.errors })
      else batch.push(prepared)
      index++
      if (batch.length >= MAX_BATCH) {
        await this.store(batch, result)
        batch = []
      }
    }
    if (batch.length > 0) await this.store(batch, result)
    return result
  }

  /**
   * As ingest(), for documents already prepared (on the large-ingest path's worker threads):
   * the thread that answers lookups then only folds and COPYs them, as ingest() does after
   * preparing. Texts kept as sent are written from their bytes; they are decoded only when a
   * listener or an ingest hook will read them.
   */
  async ingestPrepared(items: readonly PrepareResult[]): Promise<IngestResult> {
    await this.opening
    const result: IngestResult = { accepted: 0, duplicates: 0, rejected: [] }
    const decode = this.listeners.size > 0 || this.ingestHooks.size > 0
    let batch: Prepared[] = []
    for (let index = 0; index < items.length; index++) {
      const prepared = items[index]!
      if (!prepared.ok) {
        result.rejected.push({ index, errors: prepared.errors })
        continue
      }
      if (decode) jsonOf(prepared)
      batch.push(prepared)
      if (batch.length >= MAX_BATCH) {
        await this.store(batch, result)
        batch = []
      }
    }
    if (batch.length > 0) await this.store(batch, result)
    return result
  }

  /** Stores one batch in one transaction, then tells the listeners. */
  private async store(batch: Prepared[], result: IngestResult): Promise<void> {
    const { rows, keys } = foldBatch(batch)
    const now = nowInstant()
    let changed: Changed | null = null
    const fresh = await withRetry(() =>
      this.sql.begin(async (tx) => {
        // Made once per connection and emptied at each commit: cheaper than a table per batch.
        // Rows up to a page stay uncompressed: the JSON is compressed once, in events.
        await tx`CREATE TEMP TABLE IF NOT EXISTS l9kit_stage ${tx.unsafe(STAGE_TABLE)} WITH (toast_tuple_target = 8160) ON COMMIT DELETE ROWS`
        const copy = await tx`COPY l9kit_stage FROM STDIN (FORMAT binary)`.writable()
        await writeAll(copy, copyBinary(rows))
        const merged = (await tx.unsafe(MERGE_STAGED)) as unknown as { id: string; k: Buffer; inserted: boolean }[]
        await notifyChanged(tx, this.lookups.channel, (changed = changedRows(rows, merged)))
        const added = merged.filter((r) => r.inserted)
        const fresh = new Set(added.map((r) => r.k.toString('latin1')))
        if (fresh.size === 0) return fresh
        const addedEvents = rows.filter((r) => fresh.has(r.identity)).map((r) => batch[r.firstAt]!)
        for (const hook of this.ingestHooks) await hook(tx, addedEvents)
        await notifyAdded(tx, this.channel, added.map((r) => r.id).sort((a, b) => a.length - b.length || (a < b ? -1 : 1)))
        // Last: a bucket's row is then held only until the commit (plugin-counts.ts).
        await countAdded(tx, addedEvents, now)
        return fresh
      }),
    )
    this.lookups.changed(changed)
    // A row is new for the first copy of its identity in the batch only; later copies are duplicates.
    const seen = new Set<string>()
    for (let i = 0; i < batch.length; i++) {
      const key = keys[i]!
      const duplicate = seen.has(key) || !fresh.has(key)
      seen.add(key)
      if (duplicate) result.duplicates++
      else result.accepted++
      if (this.listeners.size > 0) {
        const p = batch[i]!
        const event = p.event ?? (JSON.parse(p.json) as Event)
        for (const listener of this.listeners) listener({ event, json: p.json, duplicate })
      }
    }
    this.stored += fresh.size
    if (Date.now() - this.prunedAt > PRUNE_MS) {
      this.prunedAt = Date.now()
      pruneCounts(this.sql, now).catch(() => undefined) // best effort: kept buckets are never counted wrong
    }
  }

  // The lookups, answered from the kept answers where they can be (lookups.ts).
  host = (ip: string): Awaitable<Lookup | null> => this.lookups.host(ip)
  domain = (name: string): Awaitable<Lookup | null> => this.lookups.domain(name)
  subdomains = (name: string, limit?: number): Awaitable<SubdomainEntry[] | null> => this.lookups.subdomains(name, limit)
  hostSeen = (ip: string): Awaitable<SeenLookup | null> => this.lookups.hostSeen(ip)
  domainSeen = (name: string): Awaitable<SeenLookup | null> => this.lookups.domainSeen(name)

  /**
   * While lookup answers are kept and the database's changes heard: the cache's epoch, so the
   * HTTP layer keeps finished answers too, dropped when it moves; else undefined.
   */
  get version(): number | undefined {
    return this.lookups.cache.active ? this.lookups.cache.epoch : undefined
  }

  /** An epoch since which nothing stored at `ip` changed (lookup-cache.ts). */
  hostVersion(ip: string): number {
    return this.lookups.cache.unchangedSince(addressKey(ip))
  }

  /** Sets the byte budget of the lookup answers kept (0 = none), e.g. from the service's `lookup_cache_bytes`. */
  useLookupCache(bytes: number): void {
    this.lookups.useCache(bytes)
  }

  /** One page of the events matching `query`, newest first (postgres/search.ts, on the search pool). */
  search(query: Query, page: SearchPage, options?: SearchOptions): Promise<Buffer[]> {
    return this.searches.page(query, page, options)
  }

  /** The total and facets of `query`: one statement on the search pool, bounded as a search page is (postgres/count.ts). */
  count(query: Query, request: CountRequest, options?: SearchOptions): Promise<CountResult> {
    return this.searches.count(query, request, options)
  }

  /** Every event matching `query`, newest first, read `batch` (default 1000) rows at a time (bulk export). */
  searchAll(query: Query, options?: SearchAllOptions): AsyncIterable<Buffer> {
    return this.searches.all(query, options)
  }

  /** Every event matching `query` with its seen times, one resource's rows together (bulk export; postgres/search.ts). */
  searchByResource(query: Query, options?: SearchAllOptions): AsyncIterable<SeenEvent> {
    return this.searches.byResource(query, options)
  }

  async severityCounts(): Promise<Record<string, number>> {
    await this.opening
    return severityCountsOf(this.sql)
  }

  /** Deletes the events whose `tags` hold `tag` (tagged.ts); how many. */
  async deleteTagged(tag: string): Promise<number> {
    await this.opening
    const { deleted, changed } = await deleteTagged(this.sql, tag, this.lookups.channel)
    this.lookups.changed(changed)
    this.stored = Math.max(0, this.stored - deleted)
    return deleted
  }

  onIngest(listener: IngestListener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** New events of every process on the database, through LISTEN/NOTIFY (new-events.ts). */
  onNewEvent(listener: NewEventListener): NewEventFeed {
    return this.newEvents.add(listener)
  }

  async plugins(now: Instant): Promise<PluginCount[]> {
    await this.opening
    return readPlugins(this.sql, now)
  }

  async plugin(name: string, now: Instant): Promise<PluginCount | null> {
    await this.opening
    return (await readPlugins(this.sql, now, name))[0] ?? null
  }
}
