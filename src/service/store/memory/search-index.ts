/**
 * The memory store's indexes for search (beside its IP and name indexes): posting lists by
 * source, port, fingerprint (hashed), severity, country code and name, and asn; addresses in
 * address order (CIDR ranges); every event in time order. It answers the planner's questions
 * (query/plan.ts PlanIndexes) for the selective tests; other tests are left to the evaluator.
 * Per event: 4 bytes in each of the six posting lists, 8 for the fingerprint (hash-order.ts), 28 in
 * the columns, 4 in the time order. On ingest (the thread that answers lookups) an event costs a
 * few Map lookups of values most events share and typed-array writes; what is sorted (addresses,
 * fingerprints, times) is sorted at the next query that reads it. The columns also answer facets
 * (counts of values among a query's matches: facet-columns.ts).
 */
import { reverseLabels } from '../../../names/domain.js'
import type { IdSet, PlanIndexes } from '../../../query/plan.js'
import { storable } from '../../../query/index.js'
import type { Bound, TestCond } from '../../../query/index.js'
import { DECIMAL } from '../../../query/evaluate.js'
import type { Prepared } from '../prepare.js'
import { AddressOrder } from './address-order.js'
import { Column, forEachId, type Ids } from './columns.js'
import { HashOrder } from './hash-order.js'
import { Postings } from './id-list.js'
import { detach, hash30 } from './strings.js'
import { TimeOrder } from './time-order.js'

/** What the store's own indexes tell the search index. */
export interface StoreView {
  /** Ids of the events at canonical address number `n` (see `addressNumber`). */
  addressIds(n: number): Ids | undefined
  addressNumber(canonical: string): number | undefined
  /** Calls `visit` with the ids of the name reversed as `rev` and (`under`) every name below it. */
  nameIds(rev: string, under: boolean, visit: (ids: Ids | undefined) => void): void
  /** The severity of event `id` as kept (raw), and the raw texts by severity number. */
  severityOf(id: number): number
  severityNames: readonly string[]
  ms(id: number): number
  ns(id: number): number
}

export class SearchIndex implements PlanIndexes {
  private readonly source = new Postings<string>()
  private readonly port = new Postings<string>()
  private readonly fingerprint = new HashOrder()
  private readonly severity = new Postings<number>()
  private readonly countryCode = new Postings<number>()
  private readonly countryName = new Postings<number>()
  private readonly asn = new Postings<number>()
  /** The kept observation's values (country texts interned), for the lists an event may have left. */
  private readonly sevOf = new Column((n) => new Int32Array(n))
  private readonly codeOf = new Column((n) => new Int32Array(n))
  private readonly nameOf = new Column((n) => new Int32Array(n))
  private readonly asnOf = new Column((n) => new Float64Array(n))
  /** Source and port numbers (interned), for facets. */
  private readonly sourceOf = new Column((n) => new Int32Array(n))
  private readonly portOf = new Column((n) => new Int32Array(n))
  private readonly sources = new Interned()
  private readonly ports = new Interned()
  private readonly columns = [this.sevOf, this.codeOf, this.nameOf, this.asnOf, this.sourceOf, this.portOf]
  private readonly countries = new Map<string, number>()
  /** Country texts by number. */
  private readonly countryTexts: string[] = []
  readonly addresses = new AddressOrder()
  readonly order: TimeOrder

  constructor(private readonly view: StoreView) {
    this.order = new TimeOrder(view.ms, view.ns)
  }

  /** A new event `id` (its severity number already recorded by the store). */
  add(id: number, p: Prepared): void {
    this.source.add(p.source, id)
    this.port.add(p.port, id)
    this.fingerprint.add(id, hash30(p.fingerprint))
    for (let c = 0; c < this.columns.length; c++) this.columns[c]!.ensure(id)
    this.sourceOf.data[id] = this.sources.number(p.source)
    this.portOf.data[id] = this.ports.number(p.port)
    this.keep(id, p, true)
    this.order.add(id)
  }

  /** Event `id` keeps a later observation `p` (the identity, so source, port and fingerprint, is the same). */
  replace(id: number, p: Prepared): void {
    this.keep(id, p, false)
    this.order.move(id)
  }

  /** Event `id` is deleted: out of the time order; the posting lists keep it (searches skip deleted ids). */
  remove(id: number): void {
    this.order.remove(id)
  }

  /** Lists event `id` under its values (`fresh`: a new event; else only the values that changed). */
  private keep(id: number, p: Prepared, fresh: boolean): void {
    kept(this.sevOf, this.severity, id, this.view.severityOf(id), fresh)
    kept(this.codeOf, this.countryCode, id, this.country(p.countryCode), fresh)
    kept(this.nameOf, this.countryName, id, this.country(p.countryName), fresh)
    kept(this.asnOf, this.asn, id, p.asn, fresh)
  }

  /** The number of a country code or name ('' is 0). */
  private country(text: string): number {
    let n = this.countries.get(text)
    if (n === undefined) {
      this.countries.set(detach(text), (n = this.countries.size))
      this.countryTexts.push(detach(text))
    }
    return n
  }

  /**
   * The column of a facet the index keeps (port, plugin, country, asn): each event's value as a
   * number (`key`; -1 or 0 as none, see FacetColumn) and the text of a number; undefined for others.
   */
  facetColumn(facet: string): FacetColumn | undefined {
    switch (facet) {
      case 'port':
        return { key: (id) => this.portOf.data[id]!, text: (n) => this.ports.texts[n]! }
      case 'plugin':
        return { key: (id) => this.sourceOf.data[id]!, text: (n) => this.sources.texts[n]! }
      case 'country':
        return { key: (id) => this.codeOf.data[id]!, text: (n) => this.countryTexts[n]! }
      case 'asn':
        return { key: (id) => this.asnOf.data[id]!, text: (n) => String(n) }
    }
    return undefined
  }

  /** Ids listed under a country text whose kept value it still is. */
  private countryIds(postings: Postings<number>, column: Column<Int32Array>, text: string): IdSet {
    const n = this.countries.get(text)
    return n === undefined || text === '' ? new Int32Array(0) : postings.ids(n, (id) => column.data[id] === n)
  }

  ids(cond: TestCond): { ids: IdSet; exact: boolean } | undefined {
    if (cond.fields.length !== 1) return undefined
    const field = cond.fields[0]!
    const test = cond.test
    const exact = (ids: IdSet) => ({ ids, exact: true })
    if (test.kind === 'equals') {
      switch (field.name) {
        case 'event_source':
          return exact(this.source.ids(test.value))
        case 'port':
          return exact(this.port.ids(test.value))
        case 'event_fingerprint':
          return { ids: this.fingerprint.ids(hash30(test.value)), exact: false } // hashed: collisions are evaluated
        case 'leak.severity':
          return exact(this.severityIds(test.value))
      }
      return undefined
    }
    if (test.kind === 'range' && field.name === 'port') {
      // `port:>1000`: the lists of the ports in range (at most 65 536 of them).
      const ids: number[] = []
      for (const port of this.port.keys()) if (DECIMAL.test(port) && inRangeOf(Number(port), test)) for (const id of this.port.ids(port)) ids.push(id)
      return exact(sortedUnique(ids))
    }
    if (test.kind === 'range' && field.name === 'network.asn' && test.lo && test.hi && test.lo.value === test.hi.value) {
      const asn = Number(test.lo.value)
      return exact(this.asn.ids(asn, (id) => this.asnOf.data[id] === asn))
    }
    if (test.kind === 'country') {
      let ids: number[] = []
      if (test.code !== null) ids = [...this.countryIds(this.countryCode, this.codeOf, test.code)]
      for (const name of test.names) ids.push(...this.countryIds(this.countryName, this.nameOf, name))
      return exact(sortedUnique(ids))
    }
    if (test.kind === 'address' && field.source === 'address') return exact(this.addressIds(test.range))
    if (test.kind === 'name' && field.source === 'name') {
      const ids: number[] = []
      this.view.nameIds(reverseLabels(test.name), test.under, (found) => forEachId(found, (id) => void ids.push(id)))
      return exact(sortedUnique(ids))
    }
    return undefined
  }

  private severityIds(value: string): IdSet {
    const ids: number[] = []
    this.view.severityNames.forEach((name, n) => {
      if (storable(name) === value) ids.push(...this.severity.ids(n, (id) => this.sevOf.data[id] === n))
    })
    return sortedUnique(ids)
  }

  private addressIds(range: { prefix: number; bytes: Uint8Array; text: string; family: 4 | 6 }): IdSet {
    const ids: number[] = []
    if (range.prefix === range.bytes.length * 8) {
      // One address: its ids, ascending already (added in order).
      const n = this.view.addressNumber(range.text)
      const found = n === undefined ? undefined : this.view.addressIds(n)
      return found === undefined ? new Int32Array(0) : typeof found === 'number' ? Int32Array.of(found) : new Int32Array(found)
    }
    for (const n of this.addresses.inRange(range)) forEachId(this.view.addressIds(n), (id) => void ids.push(id))
    return sortedUnique(ids)
  }
}

function inRangeOf(value: number, test: { lo?: Bound; hi?: Bound }): boolean {
  if (test.lo && (test.lo.inclusive ? value < Number(test.lo.value) : value <= Number(test.lo.value))) return false
  return !(test.hi && (test.hi.inclusive ? value > Number(test.hi.value) : value >= Number(test.hi.value)))
}

/** What a facet reads from a column: an event's value as a number, and the text of a number ('' is none). */
export interface FacetColumn {
  key(id: number): number
  text(key: number): string
}

/** Texts numbered in the order first met ('' is number 0 when met first, or any number: its text says none). */
class Interned {
  private readonly numbers = new Map<string, number>()
  readonly texts: string[] = []
  number(text: string): number {
    let n = this.numbers.get(text)
    if (n === undefined) {
      n = this.texts.length
      this.numbers.set(detach(text), n)
      this.texts.push(detach(text))
    }
    return n
  }
}

/** Lists event `id` under `value` in `postings` and records it in `column` (`fresh`: a new event; else only if it changed). */
function kept(column: Column<Int32Array | Float64Array>, postings: Postings<number>, id: number, value: number, fresh: boolean): void {
  if (!fresh && column.data[id] === value) return
  column.data[id] = value
  postings.add(value, id)
}

function sortedUnique(ids: number[]): IdSet {
  if (ids.length <= 1) return new Int32Array(ids)
  const out = new Int32Array(ids).sort()
  let n = 0
  for (let i = 0; i < out.length; i++) if (i === 0 || out[i] !== out[n - 1]) out[n++] = out[i]!
  return out.subarray(0, n)
}
