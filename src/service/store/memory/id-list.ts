/**
 * Posting lists of the memory store's search indexes: per value, the ids of the events that
 * have it, in a growable Int32Array (4 bytes an entry). Lists of values that never change for
 * an event (part of its identity: source, port, fingerprint) only grow in id order. For values
 * a later observation may change (country, asn, severity), an event is appended to its new
 * value's list and left in the old one: whoever reads the list checks each id's current value.
 */
import type { IdSet } from '../../../query/plan.js'
import { detach } from './strings.js'

export class IdList {
  private data = new Int32Array(4)
  length = 0
  /** False once an id was appended out of order (a value an event got back). */
  ordered = true

  push(id: number): void {
    if (this.length > 0 && id <= this.data[this.length - 1]!) {
      if (id === this.data[this.length - 1]) return
      this.ordered = false
    }
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    this.data[this.length++] = id
  }

  /** The ids (those `keep` accepts), ascending, each once. */
  ids(keep?: (id: number) => boolean): IdSet {
    let out = this.data.slice(0, this.length)
    if (keep !== undefined) out = out.filter(keep)
    if (this.ordered) return out
    out.sort()
    let n = 0
    for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!
    return out.subarray(0, n)
  }
}

/** Lists by value: a Map from value to its IdList. */
export class Postings<K> {
  private readonly lists = new Map<K, IdList>()

  add(value: K, id: number): void {
    let list = this.lists.get(value)
    if (list === undefined) this.lists.set(typeof value === 'string' ? (detach(value) as K) : value, (list = new IdList()))
    list.push(id)
  }

  /** Every value with a list. */
  keys(): IterableIterator<K> {
    return this.lists.keys()
  }

  /** The ids listed under `value` (those `keep` accepts). */
  ids(value: K, keep?: (id: number) => boolean): IdSet {
    return this.lists.get(value)?.ids(keep) ?? new Int32Array(0)
  }
}
