/**
 * The memory store's address table: each canonical address gets a number, which holds the ids of
 * its events and the store version at which something was last stored or deleted for it (the web
 * view's and the lookups' kept answers are checked against it).
 */
import { addId, Column, type Ids, removeId } from './columns.js'
import { detach } from './strings.js'

export class Addresses {
  private readonly numbers = new Map<string, number>()
  /** By address number: the ids of its events (undefined once all were deleted). */
  readonly ids: (Ids | undefined)[] = []
  /** By address number: the canonical address (facets count by number, then name them). */
  readonly texts: string[] = []
  private readonly changedAt = new Column((n) => new Float64Array(n))

  /** `onNew(n, ip)`: told of every address the table meets for the first time (`ip`: the table's own copy). */
  constructor(private readonly onNew: (n: number, ip: string) => void) {}

  /** The number of canonical address `ip`, or undefined when no event had it. */
  numberOf(ip: string): number | undefined {
    return this.numbers.get(ip)
  }

  /** The ids of the events at canonical address `ip`. */
  idsOf(ip: string): Ids | undefined {
    const n = this.numbers.get(ip)
    return n === undefined ? undefined : this.ids[n]
  }

  /** Adds event `id` at canonical address `ip`; its number. */
  add(ip: string, id: number): number {
    let n = this.numbers.get(ip)
    if (n === undefined) {
      n = this.ids.length
      const key = detach(ip)
      this.numbers.set(key, n)
      this.texts.push(key)
      this.ids.push(id)
      this.onNew(n, key)
    } else this.ids[n] = addId(this.ids[n], id)
    return n
  }

  remove(n: number, id: number): void {
    this.ids[n] = removeId(this.ids[n], id)
  }

  /** Notes that address number `n` (-1: none) changes with store version `version`. */
  changed(n: number, version: number): void {
    if (n < 0) return
    this.changedAt.ensure(n)
    this.changedAt.data[n] = version
  }

  /** The version at which something last changed for canonical address `ip`, 0 if never. */
  versionOf(ip: string): number {
    const n = this.numbers.get(ip)
    return n === undefined ? 0 : this.changedAt.data[n]!
  }
}
