/**
 * Counting on the memory store: every match of the query (a page's candidates(), search.ts;
 * those the plan does not decide parsed and evaluated, within a budget of `scanLimit` parses),
 * and per facet the values among them. Facets the store keeps in a column (port, plugin,
 * severity, country, asn, ip, host) are counted by number and named at the end: no parse.
 * Others read each match's JSON (once per match, whatever the number of such facets), each
 * read taken from the same budget as an evaluation. A facet meeting more distinct values than
 * the request's limit ends the count (SearchLimitError).
 */
import { type Facet, topValues } from '../../../query/facets.js'
import { matches, type Query } from '../../../query/index.js'
import { type CountRequest, type CountResult, DEFAULT_FACET_DISTINCT_LIMIT, tooManyValues } from '../count.js'
import { SearchLimitError } from '../search.js'
import type { FacetColumn } from './search-index.js'
import { candidates, type SearchView } from './search.js'

/** One facet being counted: by column number, or by value text. */
interface Tally {
  facet: Facet
  limit: number
  column: FacetColumn | undefined
  byKey: Map<number, number>
  byText: Map<string, number>
}

/**
 * The work one count may do: events parsed (to evaluate them, or to read a facet) at most
 * `left` more; past it, SearchLimitError with `spent`'s message.
 */
interface WorkBudget {
  left: number
  spent: () => string
}

/** The parsed document of candidate `id` when it matches `query`, else false; one parse from `budget`. */
function evaluated(view: SearchView, query: Query, id: number, budget: WorkBudget): Record<string, unknown> | false {
  if (--budget.left < 0) throw new SearchLimitError(budget.spent())
  const doc = JSON.parse(view.text(id)) as Record<string, unknown>
  return matches(query, doc, view.seen(id)) ? doc : false
}

/** The total and facets of `query`, within `scanLimit` evaluations and JSON reads. */
export function countMatches(view: SearchView, query: Query, request: CountRequest, scanLimit: number): CountResult {
  const distinct = request.distinctLimit ?? DEFAULT_FACET_DISTINCT_LIMIT
  const tallies: Tally[] = request.facets.map(({ facet, limit }) => ({ facet, limit, column: view.facetColumn(facet.name), byKey: new Map(), byText: new Map() }))
  const fromJson = tallies.filter((t) => t.column === undefined)
  const fromColumns = tallies.filter((t) => t.column !== undefined)
  const budget: WorkBudget = {
    left: scanLimit,
    spent: () => `the count read ${scanLimit} events: add a selective term (ip, host, plugin, severity, port, country, l9fp, time)${fromJson.length > 0 ? ` or count facets the store indexes (port, plugin, severity, country, asn, ip, host)` : ''}`,
  }
  let total = 0
  for (const { id, exact } of candidates(view, query)) {
    let doc: Record<string, unknown> | undefined
    if (!exact) {
      const judged = evaluated(view, query, id, budget)
      if (judged === false) continue
      doc = judged
    }
    total++
    for (const t of fromColumns) {
      const key = t.column!.key(id)
      t.byKey.set(key, (t.byKey.get(key) ?? 0) + 1)
      if (t.byKey.size > distinct) throw new SearchLimitError(tooManyValues(t.facet.name, distinct))
    }
    if (fromJson.length === 0) continue
    if (doc === undefined) {
      if (--budget.left < 0) throw new SearchLimitError(budget.spent())
      doc = JSON.parse(view.text(id)) as Record<string, unknown>
    }
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
