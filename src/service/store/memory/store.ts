/**
 * The in-memory store. Each event is kept once, as its canonical JSON bytes packed in large
 * slabs (arena.ts); everything else is a few typed-array slots per event plus two indexes:
 * - by canonical IP: a Map from address to the ids of its events;
 * - by host name (name-index.ts): label-reversed names in sorted order, so all names under a
 *   domain form one contiguous range.
 */
import type { SubdomainEntry } from '../../../schema/index.js'
import { formatTime, type Instant } from '../../../time/index.js'
import { canonicalDomain, reverseLabels } from '../../names/domain.js'
import { canonicalIp } from '../../names/ip.js'
import { ByteArena } from './arena.js'
import { addId, Column, forEachId, type Ids } from './columns.js'
import { NameIndex } from './name-index.js'
import { instant, split } from './instants.js'
import { detach, hash30 } from './strings.js'
import { Feeds } from './feeds.js'
import { PluginCounter } from './plugin-counts.js'
import { subdomainEntries } from './subdomains.js'
import { nowInstant } from '../plugin-windows.js'
import { identityOf, prepare, type Prepared, type PrepareResult } from '../prepare.js'
import type { IngestListener, IngestResult, Lookup, NewEventFeed, NewEventListener, PluginCount, SeenEvent, SeenLookup, Store } from '../types.js'

export class MemoryStore implements Store {
  private count = 0
  private stored = 0
  private readonly arena = new ByteArena()
  private readonly leak = new Column((n) => new Uint8Array(n))
  private readonly ms = new Column((n) => new Float64Array(n))
  private readonly subMs = new Column((n) => new Int32Array(n))
  private readonly ipOf = new Column((n) => new Int32Array(n))
  private readonly nameOf = new Column((n) => new Int32Array(n))
  /** Earliest time any observation of the event had (`ms`/`subMs` hold the latest, whose bytes are kept). */
  private readonly firstMs = new Column((n) => new Float64Array(n))
  private readonly firstSubMs = new Column((n) => new Int32Array(n))
  /** `leak.severity` of the kept bytes, as a number in `severities` (interned: few distinct values). */
  private readonly severityOf = new Column((n) => new Int32Array(n))
  private readonly severities = new Map<string, number>()
  private readonly severityNames: string[] = []
  /** Stored leak events per severity number, kept up to date on ingest. */
  private readonly leaksBySeverity: number[] = []

  private readonly ips = new Map<string, number>()
  private readonly ipIds: Ids[] = []
  /** By address number (as ipIds): the version at which something was last stored for it. */
  private readonly ipChanged = new Column((n) => new Float64Array(n))

  private readonly names = new NameIndex()

  /** 30-bit hash of an event's identity → ids with that hash (checked exactly on a hit). */
  private readonly identities = new Map<number, Ids>()
  private readonly feeds = new Feeds()
  private readonly pluginCounts = new PluginCounter()
  /** The clock of the ingest in progress (plugin counts keep the buckets that can still count from it on). */
  private clock: Instant = 0n

  get size(): number {
    return this.count
  }

  /** Documents stored so far, new or duplicate (see Store.version). */
  get version(): number {
    return this.stored
  }

  /** The version at which something was last stored for address `ip` (canonical), 0 if never (see Store.hostVersion). */
  hostVersion(ip: string): number {
    const n = this.ips.get(ip)
    return n === undefined ? 0 : this.ipChanged.data[n]!
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
    if (this.arena.wasted > Math.max(COMPACT_AFTER, this.arena.live)) this.arena.compact(this.count)
  }

  /** Sizes, for diagnostics and the benchmark. */
  stats(): { events: number; jsonBytes: number; slabBytes: number; wastedBytes: number } {
    return { events: this.count, jsonBytes: this.arena.live, slabBytes: this.arena.capacity, wastedBytes: this.arena.wasted }
  }

  host(ip: string): Lookup | null {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    const lookup = newLookup()
    this.collect(this.ipIds[this.ips.get(canonical) ?? -1], lookup)
    return lookup
  }

  domain(name: string): Lookup | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    const rev = reverseLabels(canonical)
    const lookup = newLookup()
    this.names.forEachUnder(rev, (ids) => this.collect(ids, lookup))
    return lookup
  }

  subdomains(name: string, limit?: number): SubdomainEntry[] | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return subdomainEntries(this.names, reverseLabels(canonical), { ipOf: this.ipOf.data, ms: this.ms.data, subMs: this.subMs.data }, limit)
  }

  hostSeen(ip: string): SeenLookup | null {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    const lookup = newSeenLookup()
    this.collectSeen(this.ipIds[this.ips.get(canonical) ?? -1], lookup)
    return lookup
  }

  domainSeen(name: string): SeenLookup | null {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    const rev = reverseLabels(canonical)
    const lookup = newSeenLookup()
    this.names.forEachUnder(rev, (ids) => this.collectSeen(ids, lookup))
    return lookup
  }

  severityCounts(): Record<string, number> {
    // fromEntries defines own members, so a severity such as `__proto__` stays plain data.
    return Object.fromEntries(this.severityNames.map((name, n) => [name, this.leaksBySeverity[n]!] as const).filter(([, count]) => count > 0))
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
    const hash = hash30(p.identity)
    const existing = this.findIdentity(this.identities.get(hash), p.identity)
    if (existing !== -1) {
      this.changed(this.ipOf.data[existing]!)
      const oldMs = this.ms.data[existing]!
      if (ms > oldMs || (ms === oldMs && ns > this.subMs.data[existing]!)) {
        this.store(existing, p, true)
        this.ms.data[existing] = ms
        this.subMs.data[existing] = ns
        this.setSeverity(existing, p.leak, p.severity, true)
      } else {
        const firstMs = this.firstMs.data[existing]!
        if (ms < firstMs || (ms === firstMs && ns < this.firstSubMs.data[existing]!)) {
          this.firstMs.data[existing] = ms
          this.firstSubMs.data[existing] = ns
        }
      }
      return -1
    }
    const id = this.count++
    for (const column of [this.leak, this.ms, this.subMs, this.firstMs, this.firstSubMs, this.severityOf, this.ipOf, this.nameOf]) column.ensure(id)
    this.store(id, p, false)
    this.ms.data[id] = ms
    this.subMs.data[id] = ns
    this.firstMs.data[id] = ms
    this.firstSubMs.data[id] = ns
    this.setSeverity(id, p.leak, p.severity, false)
    this.identities.set(hash, addId(this.identities.get(hash), id))
    this.changed((this.ipOf.data[id] = p.ip === '' ? -1 : this.addIp(p.ip, id)))
    this.nameOf.data[id] = p.name === '' ? -1 : this.names.add(p.name, id)
    return id
  }

  /** Puts the event's bytes in the arena (`json` may be KEPT_AS_SENT: then `utf8` is set). */
  private store(id: number, p: Prepared, replacing: boolean): void {
    if (p.owned && p.utf8 !== undefined) this.arena.keep(id, p.utf8, replacing)
    else this.arena.set(id, p.json, replacing, p.utf8)
  }

  /** Records event `id`'s severity (`replacing` its previous one) and keeps the leak counts. */
  private setSeverity(id: number, leak: boolean, severity: string, replacing: boolean): void {
    let n = this.severities.get(severity)
    if (n === undefined) {
      n = this.severityNames.length
      this.severities.set(detach(severity), n)
      this.severityNames.push(detach(severity))
      this.leaksBySeverity.push(0)
    }
    if (replacing && this.leak.data[id]) this.leaksBySeverity[this.severityOf.data[id]!]!--
    // The kept copy decides: a later observation may turn a service event into a leak or back.
    this.leak.data[id] = leak ? 1 : 0
    if (leak) this.leaksBySeverity[n]!++
    this.severityOf.data[id] = n
  }

  /** Notes that address number `n` (-1: none) changes with the document being stored (take() counts it next). */
  private changed(n: number): void {
    if (n < 0) return
    this.ipChanged.ensure(n)
    this.ipChanged.data[n] = this.stored + 1
  }

  private addIp(ip: string, id: number): number {
    let n = this.ips.get(ip)
    if (n === undefined) {
      n = this.ipIds.length
      this.ips.set(detach(ip), n)
      this.ipIds.push(id)
    } else this.ipIds[n] = addId(this.ipIds[n], id)
    return n
  }

  /** The stored event with this identity among the hash's candidates, or -1. */
  private findIdentity(candidates: Ids | undefined, identity: string): number {
    let found = -1
    forEachId(candidates, (id) => {
      if (found === -1 && identityOf(JSON.parse(this.arena.text(id))) === identity) found = id
    })
    return found
  }

  private collect(ids: Ids | undefined, into: { services: Buffer[]; leaks: Buffer[] }): void {
    const leak = this.leak.data
    forEachId(ids, (id) => (leak[id] ? into.leaks : into.services).push(this.arena.bytes(id)))
  }

  private collectSeen(ids: Ids | undefined, into: { services: SeenEvent[]; leaks: SeenEvent[] }): void {
    const leak = this.leak.data
    forEachId(ids, (id) =>
      (leak[id] ? into.leaks : into.services).push({
        json: this.arena.bytes(id),
        firstSeen: formatTime(instant(this.firstMs.data[id]!, this.firstSubMs.data[id]!)),
        lastSeen: formatTime(instant(this.ms.data[id]!, this.subMs.data[id]!)),
      }),
    )
  }
}

const COMPACT_AFTER = 64 * 1024 * 1024

const newLookup = (): { services: Buffer[]; leaks: Buffer[] } => ({ services: [], leaks: [] })
const newSeenLookup = (): { services: SeenEvent[]; leaks: SeenEvent[] } => ({ services: [], leaks: [] })
