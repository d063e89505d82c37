/**
 * Event ids by a 30-bit hash of a value that never changes for an event (its fingerprint), for
 * the search's equality test on it. On ingest an event costs one slot of a typed column and a
 * place in `pending`: no Map entry and no list object per value, which a posting list of a value
 * nearly every event has alone (a fingerprint) would cost, with the garbage collector tracing
 * them on the thread that answers lookups. New ids are sorted in at the next query, as
 * NameIndex and TimeOrder do: O(n + m log m) then.
 */
import { Column } from './columns.js'

export class HashOrder {
  private readonly hashOf = new Column((n) => new Int32Array(n))
  /** Ids in (hash, id) order. */
  private sorted = new Int32Array(0)
  /** Ids added since the last query, ascending (ids are given in order). */
  private pending: number[] = []

  /** Event `id` has `hash` (a 30-bit value; each id is added once). */
  add(id: number, hash: number): void {
    this.hashOf.ensure(id)
    this.hashOf.data[id] = hash
    this.pending.push(id)
  }

  /** The ids whose hash is `hash`, ascending (deleted ones included: the caller skips them). */
  ids(hash: number): Int32Array {
    this.merge()
    const sorted = this.sorted
    const hashes = this.hashOf.data
    let lo = 0
    let hi = sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (hashes[sorted[mid]!]! < hash) lo = mid + 1
      else hi = mid
    }
    let end = lo
    while (end < sorted.length && hashes[sorted[end]!] === hash) end++
    return sorted.slice(lo, end)
  }

  private merge(): void {
    if (this.pending.length === 0) return
    const h = this.hashOf.data
    // Stable on ascending ids: equal hashes stay in id order.
    const add = Int32Array.from(this.pending).sort((a, b) => h[a]! - h[b]! || a - b)
    const old = this.sorted
    const out = new Int32Array(old.length + add.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < old.length && j < add.length) {
      const a = old[i]!
      const b = add[j]!
      out[k++] = h[a]! < h[b]! || (h[a] === h[b] && a < b) ? old[i++]! : add[j++]!
    }
    while (i < old.length) out[k++] = old[i++]!
    while (j < add.length) out[k++] = add[j++]!
    this.sorted = out
    this.pending = []
  }
}
