/**
 * The in-memory store. Each event is kept once, as its canonical JSON bytes packed in large
 * slabs (arena.ts); everything else is a few typed-array slots per event plus its tables:
 * - by canonical IP (addresses.ts): a number per address, holding the ids of its events;
 * - by host name (name-index.ts): label-reversed names in sorted order, so all names under a
 *   domain form one contiguous range;
 * - by identity (identities.ts), for de-duplication; the search indexes (search-wiring.ts).
 * Ids are never reused: a deleted event's id stays `gone`.
 */
import type { SubdomainEntry } from '../../../schema/index.js'
import { type Query, storable } from '../../../query/index.js'
import type { Instant } from '../../../time/index.js'
import { canonicalDomain, reverseLabels } from '../../names/domain.js'
import { canonicalIp } from '../../names/ip.js'
import { ByteArena } from './arena.js'
import { Column } from './columns.js'
import { type EventReader, lookupOf, seenLookupOf } from './lookups.js'
import { NameIndex } from './name-index.js'
import { instant, split } from './instants.js'
import type { SearchIndex } from './search-index.js'
import { wireSearch } from './search-wiring.js'
import { Severities } from './severities.js'
import { MemorySearch, type MemoryStoreOptions } from './searching.js'
import type { CountRequest, CountResult } from '../count.js'
import { subdomainEntries } from './subdomains.js'
import { forEachTagged } from './tag-scan.js'
import type { SearchAllOptions, SearchOptions, SearchPage } from '../search.js'
import type { Evaluator } from '../evaluator.js'
import { Addresses } from './addresses.js'
import { Identities } from './identities.js'
import { Feeds } from './feeds.js'
import { PluginCounter } from './plugin-counts.js'
import { nowInstant } from '../plugin-windows.js'
import { identityOf, prepare, type Prepared, type PrepareResult } from '../prepare.js'
import type { BatchedIterable, IngestListener, IngestResult, Lookup, NewEventFeed, NewEventListener, PluginCount, SeenEvent, SeenLookup, Store } from '../types.js'

export type { MemoryStoreOptions }

export class MemoryStore implements Store {
  /** Stored events; `next`: ids given so far (never reused: a deleted event's id stays `gone`). */
  private events = 0
  private next = 0
  private stored = 0
  private readonly gone = new Column((n) => new Uint8Array(n))
  private readonly arena = new ByteArena()
  private readonly ms = new Column((n) => new Float64Array(n))
  private readonly subMs = new Column((n) => new Int32Array(n))
  private readonly ipOf = new Column((n) => new Int32Array(n))
  private readonly nameOf = new Column((n) => new Int32Array(n))
  /** Earliest time any observation of the event had (`ms`/`subMs` hold the latest, whose bytes are kept). */
  private readonly firstMs = new Column((n) => new Float64Array(n))
  private readonly firstSubMs = new Column((n) => new Int32Array(n))
  /** The columns above, each with a slot per id. */
  private readonly columns = [this.gone, this.ms, this.subMs, this.firstMs, this.firstSubMs, this.ipOf, this.nameOf]
  /** Each event's type and `leak.severity` (of the kept bytes), and leaks counted by severity. */
  private readonly severities = new Severities()

  private readonly addresses = new Addresses((n, ip) => this.searchIndex.addresses.add(n, ip))
  private readonly names = new NameIndex()

  private readonly identities = new Identities((id) => identityOf(JSON.parse(this.arena.text(id))))
  private readonly feeds = new Feeds()
  private readonly pluginCounts = new PluginCounter()
  /** The clock of the ingest in progress (plugin counts keep the buckets that can still count from it on). */
  private clock: Instant = 0n
  private readonly searchIndex: SearchIndex
  private readonly searching: MemorySearch
  private readonly reader: EventReader = {
    leak: () => this.severities.leak.data,
    bytes: (id) => this.arena.bytes(id),
    first: (id) => instant(this.firstMs.data[id]!, this.firstSubMs.data[id]!),
    last: (id) => instant(this.ms.data[id]!, this.subMs.data[id]!),
  }

  constructor(options: MemoryStoreOptions = {}) {
    const { arena, ms, subMs, firstMs, firstSubMs, ipOf, nameOf, gone, severities, addresses, names } = this
    const wired = wireSearch({ arena, ms, subMs, firstMs, firstSubMs, ipOf, nameOf, gone, severities, addresses, names, next: () => this.next })
    this.searchIndex = wired.index
    this.searching = new MemorySearch(wired.view, options)
  }

  get size(): number {
    return this.events
  }

  /** Documents stored so far, new or duplicate (see Store.version). */
  get version(): number {
    return this.stored
  }

  /** The version at which something was last stored for address `ip` (canonical), 0 if never (see Store.hostVersion). */
  hostVersion(ip: string): number {
    return this.addresses.versionOf(ip)
  }

  ingest(docs: Iterable<unknown>): IngestResult {
    const result: IngestResult = { accepted: 0, duplicates: 0, rejected: [] }
    this.clock = nowInstant()
    let index = 0
    for (const doc of docs) this.take(prepare(doc), index++, result)
    this.compactIfWasteful()
    return result
  }

  /**
   * As ingest(), for documents already prepared (prepare.ts; the large-ingest path does that on
   * a worker thread): stores them in order, with the same duplicate handling and listener calls.
   */
  ingestPrepared(items: readonly PrepareResult[]): IngestResult {
    const result: IngestResult = { accepted: 0, duplicates: 0, rejected: [] }
    this.clock = nowInstant()
    for (let index = 0; index < items.length; index++) this.take(items[index]!, index, result)
    this.compactIfWasteful()
    return result
  }

  /** Stores (or counts as refused) the `index`th prepared document of a batch. */
  private take(prepared: PrepareResult, index: number, result: IngestResult): void {
    if (!prepared.ok) return void result.rejected.push({ index, errors: prepared.errors })
    const id = this.add(prepared)
    const duplicate = id === -1
    this.stored++
    if (duplicate) result.duplicates++
    else {
      result.accepted++
      this.pluginCounts.add(prepared.source, prepared.time, this.clock)
    }
    this.feeds.stored(prepared, duplicate, () => this.arena.bytes(id))
  }

  /** Duplicates with later times leave their old bytes behind: reclaim them once they add up. */
  private compactIfWasteful(): void {
    if (this.arena.wasted > Math.max(COMPACT_AFTER, this.arena.live)) this.arena.compact(this.next)
  }

  /** Sizes, for diagnostics and the benchmark. */
  stats(): { events: number; jsonBytes: number; slabBytes: number; wastedBytes: number } {
    return { events: this.events, jsonBytes: this.arena.live, slabBytes: this.arena.capacity, wastedBytes: this.arena.wasted }
  }

  host(ip: string): Lookup | null {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    return lookupOf(this.reader, (each) => each(this.addresses.idsOf(canonical)))
  }

  domain(name: string): Lookup | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return lookupOf(this.reader, (each) => this.names.forEachUnder(reverseLabels(canonical), each))
  }

  subdomains(name: string, limit?: number): SubdomainEntry[] | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return subdomainEntries(this.names, { ipOf: this.ipOf.data, ms: this.ms.data, subMs: this.subMs.data }, reverseLabels(canonical), limit)
  }

  /** Searches evaluate events with `evaluator` from now on (Store.useEvaluator). */
  useEvaluator(evaluator: Evaluator | undefined): void {
    this.searching.evaluator = evaluator
  }

  // Searches, counts and bulk reads: memory/searching.ts.
  search(query: Query, page: SearchPage, options?: SearchOptions): Buffer[] | Promise<Buffer[]> {
    return this.searching.page(query, page, options)
  }

  count(query: Query, request: CountRequest, options?: SearchOptions): Promise<CountResult> {
    return this.searching.count(query, request, options)
  }

  searchAll(query: Query, options?: SearchAllOptions): AsyncIterable<Buffer> {
    return this.searching.all(query, options)
  }

  searchByResource(query: Query, options?: SearchAllOptions): BatchedIterable<SeenEvent> {
    return this.searching.byResource(query, options)
  }

  hostSeen(ip: string): SeenLookup | null {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    return seenLookupOf(this.reader, (each) => each(this.addresses.idsOf(canonical)))
  }

  domainSeen(name: string): SeenLookup | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return seenLookupOf(this.reader, (each) => this.names.forEachUnder(reverseLabels(canonical), each))
  }

  severityCounts(): Record<string, number> {
    return this.severities.counts()
  }

  /** Deletes every event whose `tags` hold `tag`; a scan that parses only events whose bytes may hold it. */
  deleteTagged(tag: string): number {
    let removed = 0
    const now = nowInstant()
    forEachTagged(tag, this.next, (id) => (this.gone.data[id] ? null : this.arena.bytes(id)), (id, event) => {
      // Counted when first stored, at that copy's time: uncounted at its first-seen time, the same
      // unless a copy with an earlier time came later (docs/service.md, "Plugins").
      this.pluginCounts.remove(storable(event.event_source), instant(this.firstMs.data[id]!, this.firstSubMs.data[id]!), now)
      this.remove(id, identityOf(event))
      removed++
    })
    if (removed > 0) {
      this.stored++
      this.compactIfWasteful()
    }
    return removed
  }

  /**
   * Takes event `id` out of every index and count; its bytes become waste. The search index's
   * posting lists keep the id (searches skip `gone` ids); the time order drops it.
   */
  private remove(id: number, identity: string): void {
    this.identities.remove(identity, id)
    const n = this.ipOf.data[id]!
    if (n >= 0) this.addresses.remove(n, id)
    this.changed(n)
    if (this.nameOf.data[id]! >= 0) this.names.remove(this.nameOf.data[id]!, id)
    this.severities.remove(id)
    this.searchIndex.remove(id)
    this.gone.data[id] = 1
    this.arena.drop(id)
    this.events--
  }

  onIngest(listener: IngestListener): () => void {
    return this.feeds.onIngest(listener)
  }

  onNewEvent(listener: NewEventListener): NewEventFeed {
    return this.feeds.onNewEvent(listener)
  }

  plugins(now: Instant): PluginCount[] {
    return this.pluginCounts.all(now)
  }

  plugin(name: string, now: Instant): PluginCount | null {
    return this.pluginCounts.count(name, now)
  }

  /** Stores a prepared event: its new id, or -1 for a duplicate (then only the newer copy is kept). */
  private add(p: Prepared): number {
    const [ms, ns] = split(p.time)
    const existing = this.identities.find(p.identity)
    if (existing !== -1) {
      this.changed(this.ipOf.data[existing]!)
      const oldMs = this.ms.data[existing]!
      if (ms > oldMs || (ms === oldMs && ns > this.subMs.data[existing]!)) {
        this.store(existing, p, true)
        this.ms.data[existing] = ms
        this.subMs.data[existing] = ns
        this.severities.set(existing, p.leak, p.severity, true)
        this.searchIndex.replace(existing, p)
      } else {
        const firstMs = this.firstMs.data[existing]!
        if (ms < firstMs || (ms === firstMs && ns < this.firstSubMs.data[existing]!)) {
          this.firstMs.data[existing] = ms
          this.firstSubMs.data[existing] = ns
        }
      }
      return -1
    }
    const id = this.next++
    this.events++
    for (let c = 0; c < this.columns.length; c++) this.columns[c]!.ensure(id)
    this.store(id, p, false)
    this.ms.data[id] = ms
    this.subMs.data[id] = ns
    this.firstMs.data[id] = ms
    this.firstSubMs.data[id] = ns
    this.severities.set(id, p.leak, p.severity, false)
    this.identities.add(p.identity, id)
    this.changed((this.ipOf.data[id] = p.ip === '' ? -1 : this.addresses.add(p.ip, id)))
    this.nameOf.data[id] = p.name === '' ? -1 : this.names.add(p.name, id)
    this.searchIndex.add(id, p)
    return id
  }

  /** Puts the event's bytes in the arena (`json` may be KEPT_AS_SENT: then `utf8` is set). */
  private store(id: number, p: Prepared, replacing: boolean): void {
    if (p.owned && p.utf8 !== undefined) this.arena.keep(id, p.utf8, replacing)
    else this.arena.set(id, p.json, replacing, p.utf8)
  }

  /** Notes that address number `n` (-1: none) changes with the next version (take() or deleteTagged() counts it). */
  private changed(n: number): void {
    this.addresses.changed(n, this.stored + 1)
  }
}

const COMPACT_AFTER = 64 * 1024 * 1024

