/**
 * The PostgreSQL store's per-process cache of lookup answers (docs/service.md, "Kept lookup
 * answers on PostgreSQL"): the rows of /host, /domain, their web pages and /api/subdomains,
 * grouped by what they are about (an address, or a name: a domain answer covers the names under
 * it too), least recently used first out, within a byte budget.
 *
 * Other processes may write the same database, so an answer is only right while the database
 * says nothing about it changed: every write sends what it changed with NOTIFY (changes.ts),
 * and change-listener.ts evicts here. Three rules keep a kept answer from being stale beyond
 * the delivery of that notification:
 * - answers are kept, and served, only while the listener is listening (`up`); going down
 *   clears everything;
 * - every change heard (and going up or down) moves the epoch on; an answer is kept only if the
 *   epoch is the one read before its query started, so a query that ran across a change (and
 *   may have read the rows before it) is answered but not kept;
 * - a change evicts the changed address, and the changed name with every name above it.
 */

/** What is kept about one address or name: one answer per kind of lookup (and subdomain limit). */
interface Group {
  answers: Map<string, { value: unknown; bytes: number }>
  bytes: number
  /** The epoch its first answer's query started at: nothing about the subject changed since. */
  since: number
}

/** An answer as kept: `value` holds no memory beyond its own (no view of a larger buffer), about `bytes` of it. */
export interface Owned<T> {
  value: T
  bytes: number
}

/** Estimated bytes of a kept answer beyond its JSON: objects, arrays, map entries. */
export const ENTRY_OVERHEAD = 200

/** The subject key of an address (canonical) and of a name (canonical, not reversed). */
export const addressKey = (ip: string) => `i${ip}`
export const nameKey = (name: string) => `n${name}`

export class LookupCache {
  private readonly groups = new Map<string, Group>()
  private bytes = 0
  private epochValue = 0
  private listening = false
  /** Test hook: awaited after a lookup's rows came and before they are kept (the epoch race, made deterministic). */
  beforeKeep: (() => Promise<void>) | undefined

  constructor(private budget: number) {}

  /** Bytes allowed (0 = the cache is off: nothing kept or served). */
  get limit(): number {
    return this.budget
  }

  set limit(bytes: number) {
    this.budget = bytes
    this.shrink()
  }

  /** Whether answers are served and kept now. */
  get active(): boolean {
    return this.listening && this.budget > 0
  }

  /** Bumped by every change heard and by the listener going up or down. */
  get epoch(): number {
    return this.epochValue
  }

  /**
   * An epoch since which nothing about `subject` changed, if the cache can tell (it keeps an
   * answer about it); else the current epoch. (The HTTP layer keeps finished /host answers
   * with it: Store.hostVersion.)
   */
  unchangedSince(subject: string): number {
    return this.groups.get(subject)?.since ?? this.epochValue
  }

  /** Bytes held (estimated: the answers' bytes plus ENTRY_OVERHEAD each). */
  get size(): number {
    return this.bytes
  }

  /** Subjects held (tests). */
  get subjects(): number {
    return this.groups.size
  }

  /** The listener is listening: changes from now on will be heard. */
  up(): void {
    this.epochValue++
    this.listening = true
  }

  /** The listener is not listening: what is kept may be stale, and nothing is kept until up() again. */
  down(): void {
    this.epochValue++
    this.listening = false
    this.clear()
  }

  /** The kept answer of `kind` about `subject`, if the cache is active; it becomes the most recently used. */
  get(subject: string, kind: string): unknown {
    if (!this.active) return undefined
    const group = this.groups.get(subject)
    const kept = group?.answers.get(kind)
    if (kept === undefined) return undefined
    this.groups.delete(subject)
    this.groups.set(subject, group!)
    return kept.value
  }

  /**
   * Runs `load` and keeps its answer, as `own` makes it (a copy holding only its own bytes, and
   * its size), unless the epoch moved while it ran or the cache is not active; the answer is
   * returned either way.
   */
  async load<T>(subject: string, kind: string, load: () => Promise<T>, own: (value: T) => Owned<T>): Promise<T> {
    const epoch = this.epochValue
    const value = await load()
    if (this.beforeKeep !== undefined) await this.beforeKeep()
    if (this.active && this.epochValue === epoch) {
      const kept = own(value)
      this.keep(subject, kind, kept.value, kept.bytes + ENTRY_OVERHEAD + subject.length * 2, epoch)
    }
    return value
  }

  /** Drops what is kept about these addresses and names (a name's answers and those of every name above it). */
  evict(ips: Iterable<string>, names: Iterable<string>): void {
    this.epochValue++
    for (const ip of ips) this.drop(addressKey(ip))
    for (const name of names) {
      // `a.b.example.com` changes the answers of itself, b.example.com, example.com and com.
      for (let at = 0; ; ) {
        this.drop(nameKey(name.slice(at)))
        const dot = name.indexOf('.', at)
        if (dot === -1) break
        at = dot + 1
      }
    }
  }

  /** Drops everything (a change too large to name, or the listener going down). */
  clear(): void {
    this.epochValue++
    this.groups.clear()
    this.bytes = 0
  }

  private keep(subject: string, kind: string, value: unknown, bytes: number, epoch: number): void {
    if (bytes > this.budget) return
    let group = this.groups.get(subject)
    if (group === undefined) group = { answers: new Map(), bytes: 0, since: epoch }
    else this.groups.delete(subject)
    this.groups.set(subject, group)
    const old = group.answers.get(kind)
    if (old !== undefined) {
      group.bytes -= old.bytes
      this.bytes -= old.bytes
    }
    group.answers.set(kind, { value, bytes })
    group.bytes += bytes
    this.bytes += bytes
    this.shrink()
  }

  /** Drops the least recently used subjects until the budget holds. */
  private shrink(): void {
    for (const oldest of this.groups.keys()) {
      if (this.bytes <= this.budget) break
      this.drop(oldest)
    }
  }

  private drop(subject: string): void {
    const group = this.groups.get(subject)
    if (group === undefined) return
    this.bytes -= group.bytes
    this.groups.delete(subject)
  }
}
