/**
 * The memory store's index by host name: each name gets a number; a Map finds it from the
 * label-reversed name (`com.example.www`), and the numbers kept in reversed-name order put all
 * names under a domain in one contiguous range (`com.example.` ≤ name < `com.example/`), found
 * by binary search: O(log n + k), and `notexample.com` (`com.notexample`) is never inside it.
 */
import { reverseLabels } from '../../names/domain.js'
import { addId, type Ids, removeId } from './columns.js'
import { detach } from './strings.js'

export class NameIndex {
  private readonly numbers = new Map<string, number>()
  /** Label-reversed names, by number. */
  readonly reversed: string[] = []
  /** The ids of each name's events, by number. */
  readonly ids: (Ids | undefined)[] = []
  /** Name numbers sorted by reversed name; new names wait in `pending` until the next query. */
  private sorted: number[] = []
  private pending: number[] = []

  /** The number of the name whose label-reversed form is `rev`, or -1. */
  numberOf(rev: string): number {
    return this.numbers.get(rev) ?? -1
  }

  /** Adds event `id` under the canonical name `name`; returns the name's number. */
  add(name: string, id: number): number {
    const rev = reverseLabels(name)
    let n = this.numbers.get(rev)
    if (n === undefined) {
      n = this.reversed.length
      const key = detach(rev)
      this.numbers.set(key, n)
      this.reversed.push(key)
      this.ids.push(id)
      this.pending.push(n)
    } else this.ids[n] = addId(this.ids[n], id)
    return n
  }

  /** Removes event `id` from name number `n` (a deleted event); the name stays, with no ids. */
  remove(n: number, id: number): void {
    this.ids[n] = removeId(this.ids[n], id)
  }

  /** Calls `visit` with the ids of the name reversed as `rev`, then of each name below it, in sorted order. */
  forEachUnder(rev: string, visit: (ids: Ids | undefined) => void): void {
    visit(this.ids[this.numberOf(rev)])
    const [from, to] = this.range(rev)
    for (let i = from; i < to; i++) visit(this.ids[this.sorted[i]!])
  }

  /** Positions (for sortedAt) of the names strictly below the reversed name `rev`. */
  range(rev: string): [number, number] {
    this.merge()
    return [this.lowerBound(rev + '.'), this.lowerBound(rev + '/')]
  }

  /** The number of the name at position `i` of the sorted order (after range()). */
  sortedAt(i: number): number {
    return this.sorted[i]!
  }

  private lowerBound(key: string): number {
    let lo = 0
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.reversed[this.sorted[mid]!]! < key) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** Merges names added since the last query into the sorted list: O(n + m log m) per batch. */
  private merge(): void {
    if (this.pending.length === 0) return
    const rev = this.reversed
    const add = this.pending.sort((a, b) => (rev[a]! < rev[b]! ? -1 : 1))
    const old = this.sorted
    const out: number[] = new Array(old.length + add.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < old.length && j < add.length) out[k++] = rev[old[i]!]! < rev[add[j]!]! ? old[i++]! : add[j++]!
    while (i < old.length) out[k++] = old[i++]!
    while (j < add.length) out[k++] = add[j++]!
    this.sorted = out
    this.pending = []
  }
}
