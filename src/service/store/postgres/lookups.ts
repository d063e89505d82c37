/**
 * The PostgreSQL store's lookups (host, domain, their seen-time forms, subdomains): one indexed
 * query each (lookup-rows.ts, summaries.ts), answered from the lookup cache when it is on and
 * listening (lookup-cache.ts; a kept answer comes back at once, not as a promise).
 */
import type { Sql } from 'postgres'
import type { SubdomainEntry } from '../../../schema/index.js'
import { canonicalDomain, reverseLabels } from '../../names/domain.js'
import { canonicalIp } from '../../names/ip.js'
import type { Awaitable, Lookup, SeenEvent, SeenLookup } from '../types.js'
import { ChangeListener } from './change-listener.js'
import { type Changed, changesChannel } from './changes.js'
import { addressKey, LookupCache, nameKey, type Owned } from './lookup-cache.js'
import { rowsAtAddress, rowsUnderName, split, splitSeen } from './lookup-rows.js'
import { subdomainsOf } from './summaries.js'

/** Default byte budget of the lookup cache of a store made without the service (off: no LISTEN connection). */
export const DEFAULT_LOOKUP_CACHE_BYTES = 0

/**
 * The rows' JSON are views of the driver's socket reads (raw mode), which hold other rows too:
 * a kept answer gets its own copy, one allocation for all its events.
 */
function ownBytes(all: readonly (readonly Uint8Array[])[]): Buffer[][] {
  let total = 0
  for (const list of all) for (const b of list) total += b.length
  const out = Buffer.allocUnsafeSlow(total)
  let at = 0
  return all.map((list) =>
    list.map((b) => {
      out.set(b, at)
      return out.subarray(at, (at += b.length))
    }),
  )
}

function ownLookup(l: Lookup): Owned<Lookup> {
  const [services, leaks] = ownBytes([l.services, l.leaks])
  return { value: { services: services!, leaks: leaks! }, bytes: sum([...services!, ...leaks!], (b) => b.length + 80) }
}

function ownSeen(l: SeenLookup): Owned<SeenLookup> {
  const [services, leaks] = ownBytes([l.services.map((e) => e.json), l.leaks.map((e) => e.json)])
  const copy = (events: readonly SeenEvent[], json: Buffer[]) => events.map((e, i) => ({ ...e, json: json[i]! }))
  const value = { services: copy(l.services, services!), leaks: copy(l.leaks, leaks!) }
  return { value, bytes: sum([...value.services, ...value.leaks], (e) => e.json.length + 160) }
}

const ownEntries = (entries: SubdomainEntry[]): Owned<SubdomainEntry[]> => ({ value: entries, bytes: sum(entries, (e) => e.subdomain.length * 2 + 120) })

function sum<T>(items: readonly T[], size: (item: T) => number): number {
  let n = 0
  for (const item of items) n += size(item)
  return n
}

export class PostgresLookups {
  /** The kept answers (tests read it; `beforeKeep` is their hook). */
  readonly cache: LookupCache
  /** The LISTEN connection while the cache is on (null when off). */
  listener: ChangeListener | null = null
  readonly channel: string

  constructor(
    private readonly sql: Sql,
    private readonly url: string,
    private readonly schema: string,
    private readonly opening: Promise<void>,
    bytes: number,
  ) {
    this.channel = changesChannel(schema)
    this.cache = new LookupCache(0)
    this.useCache(bytes)
  }

  /** Sets the cache's byte budget: 0 turns it off (and closes the LISTEN connection), more starts it. */
  useCache(bytes: number): void {
    this.cache.limit = Math.max(0, Math.floor(bytes))
    if (this.cache.limit > 0 && this.listener === null) {
      this.listener = new ChangeListener(this.url, this.schema, this.channel, this.cache, this.opening, this.sql)
    } else if (this.cache.limit === 0 && this.listener !== null) {
      void this.listener.close()
      this.listener = null
    }
  }

  /** This process's own write committed: its notification will come too, but answers change now. */
  changed(changed: Changed | null): void {
    if (changed === null) this.cache.clear()
    else if (changed.ips.size + changed.names.size > 0) this.cache.evict(changed.ips, changed.names)
  }

  async close(): Promise<void> {
    await this.listener?.close()
    this.listener = null
  }

  host(ip: string): Awaitable<Lookup | null> {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    return this.answer(addressKey(canonical), 'h', async () => split(await rowsAtAddress(this.sql, canonical, false)), ownLookup)
  }

  hostSeen(ip: string): Awaitable<SeenLookup | null> {
    const canonical = canonicalIp(ip)
    if (canonical === null) return null
    return this.answer(addressKey(canonical), 's', async () => splitSeen(await rowsAtAddress(this.sql, canonical, true)), ownSeen)
  }

  domain(name: string): Awaitable<Lookup | null> {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return this.answer(nameKey(canonical), 'd', async () => split(await rowsUnderName(this.sql, reverseLabels(canonical), false)), ownLookup)
  }

  domainSeen(name: string): Awaitable<SeenLookup | null> {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return this.answer(nameKey(canonical), 'D', async () => splitSeen(await rowsUnderName(this.sql, reverseLabels(canonical), true)), ownSeen)
  }

  subdomains(name: string, limit?: number): Awaitable<SubdomainEntry[] | null> {
    const canonical = canonicalDomain(name)
    if (canonical === null) return null
    return this.answer(nameKey(canonical), `u${limit ?? ''}`, () => subdomainsOf(this.sql, reverseLabels(canonical), limit), ownEntries)
  }

  /** The kept answer, or the query's (kept if the cache allows). */
  private answer<T>(subject: string, kind: string, query: () => Promise<T>, own: (value: T) => Owned<T>): Awaitable<T> {
    const kept = this.cache.get(subject, kind)
    if (kept !== undefined) return kept as T
    const load = async () => {
      await this.opening
      return query()
    }
    return this.cache.limit === 0 ? load() : this.cache.load(subject, kind, load, own)
  }
}
