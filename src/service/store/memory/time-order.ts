/**
 * Every event's id in the order searches answer in: by last seen time (the kept
 * observation's), then by id; read from the end for newest first. New events and events whose
 * time moved wait in `pending` and are merged in at the next search: O(n + m log m) then, as
 * NameIndex merges names. A merge makes a new array, so an export that is reading an older
 * one (a snapshot) goes on undisturbed.
 */
export class TimeOrder {
  private sorted = new Int32Array(0)
  private pending: number[] = []
  /** Ids whose time changed: their place in `sorted` is no longer right. */
  private moved = new Set<number>()
  /** Deleted ids: taken out at the next merge, not put back. */
  private removed = new Set<number>()

  /** `ms(id)`, `ns(id)`: an event's last seen time, as the store keeps it (instants.ts). */
  constructor(
    private readonly ms: (id: number) => number,
    private readonly ns: (id: number) => number,
  ) {}

  add(id: number): void {
    this.pending.push(id)
  }

  /** Event `id` has a new last seen time. */
  move(id: number): void {
    this.moved.add(id)
    this.pending.push(id)
  }

  /** Event `id` is deleted: left out at the next merge. */
  remove(id: number): void {
    this.moved.add(id)
    this.pending.push(id)
    this.removed.add(id)
  }

  /** True when event `a` comes before `b`. */
  private before(a: number, b: number): boolean {
    const ma = this.ms(a)
    const mb = this.ms(b)
    if (ma !== mb) return ma < mb
    const na = this.ns(a)
    const nb = this.ns(b)
    return na !== nb ? na < nb : a < b
  }

  /** The ids in order, oldest first (a snapshot: never changed afterwards). */
  snapshot(): Int32Array {
    if (this.pending.length === 0) return this.sorted
    const add = [...new Set(this.pending)].filter((id) => !this.removed.has(id)).sort((a, b) => (this.before(a, b) ? -1 : 1))
    const old = this.moved.size === 0 ? this.sorted : this.sorted.filter((id) => !this.moved.has(id))
    const out = new Int32Array(old.length + add.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < old.length && j < add.length) out[k++] = this.before(old[i]!, add[j]!) ? old[i++]! : add[j++]!
    while (i < old.length) out[k++] = old[i++]!
    while (j < add.length) out[k++] = add[j++]!
    this.sorted = out
    this.pending = []
    this.moved.clear()
    this.removed.clear()
    return out
  }

  /** The first position in `order` whose time is at least (`ms`, `ns`) (after it, with `after`). */
  static lowerBound(order: Int32Array, ms: number, ns: number, after: boolean, msOf: (id: number) => number, nsOf: (id: number) => number): number {
    let lo = 0
    let hi = order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const id = order[mid]!
      const m = msOf(id)
      const n = nsOf(id)
      const below = m < ms || (m === ms && (after ? n <= ns : n < ns))
      if (below) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
