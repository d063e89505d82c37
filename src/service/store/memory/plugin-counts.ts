/**
 * The memory store's plugin counts (Store.plugins): per plugin, new events by UTC minute and by
 * UTC hour (plugin-windows.ts), kept up to date as events are stored; a request sums at most
 * 60 + 168 buckets per plugin. Buckets that can no longer count are dropped as time passes.
 */
import type { Instant } from '../../../time/index.js'
import { hourKept, hourOfMinute, keptFrom, minuteKept, minuteOf, windowsAt } from '../plugin-windows.js'
import type { PluginCount } from '../types.js'
import { detach } from './strings.js'

interface Buckets {
  minutes: Map<number, number>
  hours: Map<number, number>
}

/** Prune every this many counted events (and at most once a minute of the clock it is given). */
const PRUNE_EVERY = 10_000

export class PluginCounter {
  /** By name; a Map, so a plugin called `__proto__` is ordinary data. */
  private readonly byName = new Map<string, Buckets>()
  /** Stored events per plugin: a plugin is listed while it has one. */
  private readonly stored = new Map<string, number>()
  private sincePrune = 0
  private prunedAt = -1
  /** The clock of the last add() and the first buckets that count from it (keptFrom). */
  private clock: Instant = -1n
  private from = { minute: 0, hour: 0 }

  /** Counts a new event of plugin `name` ('' counts nothing) with time `time`, at clock `now`. */
  add(name: string, time: Instant, now: Instant): void {
    if (name === '') return
    let buckets = this.byName.get(name)
    if (buckets === undefined) {
      buckets = { minutes: new Map(), hours: new Map() }
      this.byName.set(detach(name), buckets)
    }
    this.stored.set(name, (this.stored.get(name) ?? 0) + 1)
    this.bump(buckets, time, now, 1)
    if (++this.sincePrune >= PRUNE_EVERY && minuteOf(now) !== this.prunedAt) this.prune(now)
  }

  /**
   * A deleted event of plugin `name`, counted at `time` (its first-seen time): its buckets are
   * lowered, and the plugin is no longer listed once it has no stored event.
   */
  remove(name: string, time: Instant, now: Instant): void {
    const buckets = this.byName.get(name)
    if (name === '' || buckets === undefined) return
    const left = (this.stored.get(name) ?? 1) - 1
    if (left <= 0) {
      this.stored.delete(name)
      this.byName.delete(name)
      return
    }
    this.stored.set(name, left)
    this.bump(buckets, time, now, -1)
  }

  private bump(buckets: Buckets, time: Instant, now: Instant, by: 1 | -1): void {
    // One bigint division per event: the clock's buckets are worked out once per clock (an ingest's batch shares one).
    if (now !== this.clock) {
      this.clock = now
      this.from = keptFrom(now)
    }
    const minute = minuteOf(time)
    const hour = hourOfMinute(minute)
    if (minute >= this.from.minute) put(buckets.minutes, minute, by)
    if (hour >= this.from.hour) put(buckets.hours, hour, by)
  }

  /** Every plugin with its counts at `now`, by name in byte order. */
  all(now: Instant): PluginCount[] {
    return [...this.byName.keys()].sort(byteOrder).map((name) => this.count(name, now)!)
  }

  /** One plugin's counts at `now`; null when it was never seen. */
  count(name: string, now: Instant): PluginCount | null {
    const buckets = this.byName.get(name)
    if (buckets === undefined) return null
    const w = windowsAt(now)
    return {
      name,
      count1h: sum(buckets.minutes, w.minutes),
      count24h: sum(buckets.hours, w.hours24h),
      count7d: sum(buckets.hours, w.hours7d),
    }
  }

  private prune(now: Instant): void {
    this.sincePrune = 0
    this.prunedAt = minuteOf(now)
    for (const buckets of this.byName.values()) {
      for (const minute of buckets.minutes.keys()) if (!minuteKept(minute, now)) buckets.minutes.delete(minute)
      for (const hour of buckets.hours.keys()) if (!hourKept(hour, now)) buckets.hours.delete(hour)
    }
  }
}

function sum(buckets: Map<number, number>, [from, to]: [number, number]): number {
  let n = 0
  // The map holds few buckets (at most a window's worth plus future ones): walk it, not the range.
  for (const [bucket, count] of buckets) if (bucket >= from && bucket <= to) n += count
  return n
}

/** UTF-8 byte order, as PostgreSQL's collation "C" sorts (UTF-16 order differs above U+FFFF). */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

/** Adds `by` to bucket `key` of `map`; a bucket that reaches 0 is dropped. */
function put(map: Map<number, number>, key: number, by: 1 | -1): void {
  const n = (map.get(key) ?? 0) + by
  if (n > 0) map.set(key, n)
  else map.delete(key)
}
