/**
 * How the memory store's search (search-index.ts, search.ts) reads the store: its columns,
 * address and name tables and severities, wired once when the store is made.
 */
import { reverseLabels } from '../../names/domain.js'
import { storable } from '../../../query/index.js'
import type { Column } from './columns.js'
import type { Addresses } from './addresses.js'
import type { ByteArena } from './arena.js'
import { instant } from './instants.js'
import type { NameIndex } from './name-index.js'
import { type FacetColumn, SearchIndex } from './search-index.js'
import type { SearchView } from './search.js'
import type { Severities } from './severities.js'

/** The parts of the store a search reads. */
export interface SearchedStore {
  arena: ByteArena
  ms: Column<Float64Array>
  subMs: Column<Int32Array>
  firstMs: Column<Float64Array>
  firstSubMs: Column<Int32Array>
  ipOf: Column<Int32Array>
  nameOf: Column<Int32Array>
  gone: Column<Uint8Array>
  severities: Severities
  addresses: Addresses
  names: NameIndex
  /** One more than the highest id given so far. */
  next(): number
}

/** The search index (kept up to date by the store on ingest and delete) and the view searches read through. */
export function wireSearch(s: SearchedStore): { index: SearchIndex; view: SearchView } {
  const ms = (id: number) => s.ms.data[id]!
  const ns = (id: number) => s.subMs.data[id]!
  const index = new SearchIndex({
    addressIds: (n) => s.addresses.ids[n],
    addressNumber: (canonical) => s.addresses.numberOf(canonical),
    nameIds: (rev, under, visit) => (under ? s.names.forEachUnder(rev, visit) : visit(s.names.ids[s.names.numberOf(rev)])),
    severityOf: (id) => s.severities.of.data[id]!,
    severityNames: s.severities.names,
    ms,
    ns,
  })
  const view: SearchView = {
    index,
    isLeak: (id) => s.severities.leak.data[id] === 1,
    isGone: (id) => s.gone.data[id] === 1,
    idLimit: () => s.next(),
    bytes: (id) => s.arena.bytes(id),
    length: (id) => s.arena.size(id),
    text: (id) => s.arena.text(id),
    seen: (id) => ({ first: instant(s.firstMs.data[id]!, s.firstSubMs.data[id]!), last: instant(ms(id), ns(id)) }),
    ms,
    ns,
    addressOf: (id) => s.ipOf.data[id]!,
    nameOf: (id) => s.nameOf.data[id]!,
    addressCount: () => s.addresses.ids.length,
    nameCount: () => s.names.ids.length,
    facetColumn: (facet) => facetColumn(s, index, facet),
  }
  return { index, view }
}

/** The facets the store's columns answer (the others are read from each match's JSON). */
function facetColumn(s: SearchedStore, index: SearchIndex, facet: string): FacetColumn | undefined {
  switch (facet) {
    case 'severity':
      return { key: (id) => s.severities.of.data[id]!, text: (n) => storable(s.severities.names[n]!) }
    case 'ip':
      return { key: (id) => s.ipOf.data[id]!, text: (n) => (n < 0 ? '' : s.addresses.texts[n]!) }
    case 'host':
      return { key: (id) => s.nameOf.data[id]!, text: (n) => (n < 0 ? '' : reverseLabels(s.names.reversed[n]!)) }
  }
  return index.facetColumn(facet)
}
