/**
 * The memory store's addresses in address order, for CIDR ranges: each address number (as
 * the store's IP index numbers them) with a key that sorts as the address (family, then the
 * bytes in hex), merged into the sorted list at the next range query as NameIndex does. A
 * range is then one contiguous run of keys, found by binary search: O(log n + k). A new
 * address costs its ingest only a place in `pending`: its key is made at that query (making
 * it on ingest was about a sixth of storing an event with a new address, on the thread that
 * answers lookups).
 */
import { addressBytes, type AddressRange } from '../../../query/address.js'

const keyOf = (bytes: Uint8Array) => `${bytes.length === 4 ? '4' : '6'}${Buffer.from(bytes).toString('hex')}`

export class AddressOrder {
  /** By address number: its key once merged; before that, its canonical text. */
  private readonly keys: string[] = []
  private sorted: number[] = []
  private pending: number[] = []

  /**
   * Address number `n` (numbers come in order 0, 1, 2, …) is `canonical` (canonicalIp; a string
   * of its own, not a slice of a larger text, as it is kept until the next range query).
   */
  add(n: number, canonical: string): void {
    this.keys[n] = canonical
    this.pending.push(n)
  }

  /** The numbers of the addresses in `range`. */
  inRange(range: AddressRange): number[] {
    this.merge()
    const first = keyOf(range.bytes)
    const last = new Uint8Array(range.bytes)
    for (let bit = range.prefix; bit < last.length * 8; bit++) last[bit >> 3]! |= 0x80 >> (bit & 7)
    const end = keyOf(last)
    const out: number[] = []
    for (let i = this.lowerBound(first); i < this.sorted.length && this.keys[this.sorted[i]!]! <= end; i++) out.push(this.sorted[i]!)
    return out
  }

  private lowerBound(key: string): number {
    let lo = 0
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.keys[this.sorted[mid]!]! < key) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private merge(): void {
    if (this.pending.length === 0) return
    const keys = this.keys
    for (const n of this.pending) keys[n] = keyOf(addressBytes(keys[n]!)!)
    const add = this.pending.sort((a, b) => (keys[a]! < keys[b]! ? -1 : 1))
    const old = this.sorted
    const out: number[] = new Array(old.length + add.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < old.length && j < add.length) out[k++] = keys[old[i]!]! < keys[add[j]!]! ? old[i++]! : add[j++]!
    while (i < old.length) out[k++] = old[i++]!
    while (j < add.length) out[k++] = add[j++]!
    this.sorted = out
    this.pending = []
  }
}
