/**
 * Running a query on the memory store: the planner (query/plan.ts) picks candidates from the
 * indexes (search-index.ts); they are read newest first, and those the plan does not answer
 * exactly are evaluated within the request's bounds (matching.ts: off this thread when the
 * store has an Evaluator). A page stops as soon as it is full, so `*` or a selective query
 * costs only the events it returns; a query no index narrows evaluates events newest first
 * until the page is full, within the work budget and `scanLimit` (then SearchLimitError).
 */
import type { Query, Seen } from '../../../query/index.js'
import type { Plan } from '../../../query/plan.js'
import type { SearchPage } from '../search.js'
import type { FacetColumn, SearchIndex } from './search-index.js'
import { exactPage, type MatchBounds, matching, planOf } from './matching.js'
import { SeenAt } from '../seen-at.js'
import type { BatchedIterable, SeenEvent } from '../types.js'

/** What a search reads of the store. */
export interface SearchView {
  index: SearchIndex
  isLeak(id: number): boolean
  /** A deleted event (its id may still be in posting lists). */
  isGone(id: number): boolean
  /** One more than the highest id given so far. */
  idLimit(): number
  bytes(id: number): Buffer
  /** Bytes of the event's JSON. */
  length(id: number): number
  text(id: number): string
  seen(id: number): Seen
  ms(id: number): number
  ns(id: number): number
  /** The event's address number (-1: none) and name number (-1: none), and how many of each there are. */
  addressOf(id: number): number
  nameOf(id: number): number
  addressCount(): number
  nameCount(): number
  /** The column that answers a facet (facet-columns in search-wiring.ts), or undefined: read the JSON. */
  facetColumn(facet: string): FacetColumn | undefined
}

/**
 * One page of matches, newest first: at once when the indexes answer the query exactly (no
 * event is evaluated), else a promise (matching.ts evaluates, within `bounds`).
 */
export function searchPage(view: SearchView, query: Query, page: SearchPage, bounds: MatchBounds): Buffer[] | Promise<Buffer[]> {
  if (page.limit <= 0) return []
  const chosen = planOf(view, query)
  if (chosen.exact) return exactPage(view, query, chosen, page.offset, page.limit)
  return evaluatedPage(view, query, page, bounds, chosen)
}

async function evaluatedPage(view: SearchView, query: Query, page: SearchPage, bounds: MatchBounds, chosen: Plan): Promise<Buffer[]> {
  const out: Buffer[] = []
  let skip = page.offset
  for await (const id of matching(view, query, bounds, chosen)) {
    if (skip > 0) {
      skip--
      continue
    }
    out.push(view.bytes(id))
    if (out.length >= page.limit) break
  }
  return out
}

/**
 * Every match, newest first (matching.ts: exact candidates with a turn of the event loop every
 * thousand, others evaluated in batches within `bounds`). Candidates and their order are taken
 * when it starts; an event re-observed meanwhile comes with its newest bytes.
 */
export async function* searchAll(view: SearchView, query: Query, bounds: MatchBounds): AsyncGenerator<Buffer> {
  for await (const id of matching(view, query, bounds)) if (!view.isGone(id)) yield view.bytes(id)
}

/**
 * Every match with its seen times, one resource's events together (Store.searchByResource).
 * The matching ids are collected first (4 bytes each, evaluated within `bounds`), then put in
 * resource order by a counting sort on the store's address and name numbers: O(matches +
 * addresses + names) time and typed arrays of that size, nothing per event beyond. Events with
 * neither an address nor a valid name (rare) are grouped by their host as written; the events
 * are handed out `batch` at a time with a turn of the event loop between.
 */
export function searchByResource(view: SearchView, query: Query, batch: number, bounds: MatchBounds): BatchedIterable<SeenEvent> {
  return {
    batches: () => byResource(view, query, batch, bounds),
    async *[Symbol.asyncIterator]() {
      for await (const events of byResource(view, query, batch, bounds)) yield* events
    },
  }
}

/** searchByResource's events, `batch` at a time (the last batch may be shorter). */
async function* byResource(view: SearchView, query: Query, batch: number, bounds: MatchBounds): AsyncGenerator<SeenEvent[]> {
  let ids = new Int32Array(1024)
  let n = 0
  for await (const id of matching(view, query, bounds)) {
    if (n === ids.length) {
      const grown = new Int32Array(ids.length * 2)
      grown.set(ids)
      ids = grown
    }
    ids[n++] = id
  }
  const addresses = view.addressCount()
  const names = view.nameCount()
  const rest = addresses + names
  const keyOf = (id: number) => {
    const a = view.addressOf(id)
    if (a >= 0) return a
    const m = view.nameOf(id)
    return m >= 0 ? addresses + m : rest
  }
  const starts = new Int32Array(rest + 2)
  for (let i = 0; i < n; i++) starts[keyOf(ids[i]!) + 1]!++
  for (let k = 1; k < starts.length; k++) starts[k]! += starts[k - 1]!
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[starts[keyOf(ids[i]!)]!++] = ids[i]!
  ids = new Int32Array(0)
  // The last bucket: no address, no valid name; one resource per host as written.
  const restFrom = rest === 0 ? 0 : starts[rest - 1]!
  if (n - restFrom > 1) {
    const hosts = new Map<number, string>()
    for (let i = restFrom; i < n; i++) hosts.set(order[i]!, String((JSON.parse(view.text(order[i]!)) as { host?: unknown }).host ?? ''))
    const tail = Array.from(order.subarray(restFrom)).sort((a, b) => (hosts.get(a)! < hosts.get(b)! ? -1 : hosts.get(a)! > hosts.get(b)! ? 1 : a - b))
    order.set(tail, restFrom)
  }
  for (let from = 0; from < n; from += batch) {
    if (from > 0) await new Promise((resolve) => setImmediate(resolve))
    const events: SeenEvent[] = []
    for (let i = from; i < Math.min(n, from + batch); i++) {
      const id = order[i]!
      if (view.isGone(id)) continue // deleted meanwhile
      const seen = view.seen(id)
      events.push(new SeenAt(view.bytes(id), seen.first, seen.last))
    }
    if (events.length > 0) yield events
  }
}

