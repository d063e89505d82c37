/**
 * Counting on the memory store: every match of the query, found on the one bounded path every
 * search takes (matching.ts: the planner's candidates, those it does not decide evaluated by the
 * store's Evaluator within the request's work budget, signal and the store's scan limit), and
 * per facet the values among them. Facets the store keeps in a column (port, plugin, severity,
 * country, asn, ip, host) are counted by number and named at the end: no parse. Others read
 * each match's JSON once (whatever the number of such facets), at most `scanLimit` reads, with a
 * turn of the event loop every READ_STEP of them: the reads run on the thread that answers
 * lookups, which must not wait for all of them. A facet meeting more distinct values than the
 * request's limit ends the count (SearchLimitError).
 */
import { type Facet, topValues } from '../../../query/facets.js'
import type { Query } from '../../../query/index.js'
import { type CountRequest, type CountResult, DEFAULT_FACET_DISTINCT_LIMIT, tooManyValues } from '../count.js'
import { SearchLimitError } from '../search.js'
import type { FacetColumn } from './search-index.js'
import { type MatchBounds, matching, turn } from './matching.js'
import type { SearchView } from './search.js'

/** JSON reads between turns of the event loop: about a millisecond of parsing 2–3 KB events. */
export const READ_STEP = 64

/** One facet being counted: by column number, or by value text. */
interface Tally {
  facet: Facet
  limit: number
  column: FacetColumn | undefined
  byKey: Map<number, number>
  byText: Map<string, number>
}

/** The total and facets of `query`, within `bounds` (matching.ts) and `bounds.scanLimit` JSON reads. */
export async function countMatches(view: SearchView, query: Query, request: CountRequest, bounds: MatchBounds): Promise<CountResult> {
  const distinct = request.distinctLimit ?? DEFAULT_FACET_DISTINCT_LIMIT
  const tallies: Tally[] = request.facets.map(({ facet, limit }) => ({ facet, limit, column: view.facetColumn(facet.name), byKey: new Map(), byText: new Map() }))
  const fromJson = tallies.filter((t) => t.column === undefined)
  const fromColumns = tallies.filter((t) => t.column !== undefined)
  const reads = bounds.scanLimit ?? Infinity
  let read = 0
  let total = 0
  const said = `the count read ${reads} events: add a selective term (ip, host, plugin, severity, port, country, l9fp, time)${fromJson.length > 0 ? ' or count facets the store indexes (port, plugin, severity, country, asn, ip, host)' : ''}`
  for await (const id of matching(view, query, { ...bounds, scanLimitMessage: said })) {
    total++
    for (const t of fromColumns) {
      const key = t.column!.key(id)
      t.byKey.set(key, (t.byKey.get(key) ?? 0) + 1)
      if (t.byKey.size > distinct) throw new SearchLimitError(tooManyValues(t.facet.name, distinct))
    }
    if (fromJson.length === 0) continue
    if (++read > reads) {
      throw new SearchLimitError(said)
    }
    if (read % READ_STEP === 0) {
      await turn()
      bounds.signal?.throwIfAborted()
    }
    const doc = JSON.parse(view.text(id)) as Record<string, unknown>
    for (const t of fromJson) {
      for (const value of t.facet.values(doc)) t.byText.set(value, (t.byText.get(value) ?? 0) + 1)
      if (t.byText.size > distinct) throw new SearchLimitError(tooManyValues(t.facet.name, distinct))
    }
  }
  const facets = tallies.map((t) => {
    if (t.column !== undefined) {
      // Numbers to texts: two numbers may name one value (severities kept as given, compared storable).
      for (const [key, count] of t.byKey) {
        const text = t.column.text(key)
        if (text === '' || (t.facet.name === 'asn' && key === 0)) continue
        t.byText.set(text, (t.byText.get(text) ?? 0) + count)
      }
    }
    return { name: t.facet.name, values: topValues(t.facet, t.byText, t.limit) }
  })
  return { total, facets }
}
