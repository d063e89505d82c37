/**
 * Running a query on the memory store: the planner (query/plan.ts) picks candidates from the
 * indexes (search-index.ts); they are read newest first, and the evaluator checks those the
 * plan does not answer exactly. A page stops as soon as it is full, so `*` or a selective
 * query costs only the events it returns; a query no index narrows evaluates events newest
 * first until the page is full, at most `scanLimit` of them per page (then SearchLimitError).
 */
import { matches, type Query, type Seen } from '../../../query/index.js'
import { plan } from '../../../query/plan.js'
import { type SearchPage, SearchLimitError } from '../search.js'
import type { SearchIndex } from './search-index.js'
import { TimeOrder } from './time-order.js'
import { split } from './instants.js'
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
  text(id: number): string
  seen(id: number): Seen
  ms(id: number): number
  ns(id: number): number
  /** The event's address number (-1: none) and name number (-1: none), and how many of each there are. */
  addressOf(id: number): number
  nameOf(id: number): number
  addressCount(): number
  nameCount(): number
}

/** One page of matches, newest first. */
export function searchPage(view: SearchView, query: Query, page: SearchPage, scanLimit: number): Buffer[] {
  const out: Buffer[] = []
  if (page.limit <= 0) return out
  let skip = page.offset
  let evaluated = 0
  for (const { id, exact } of candidates(view, query)) {
    if (!exact) {
      if (++evaluated > scanLimit) {
        throw new SearchLimitError(`the search read ${scanLimit} events without filling the page: add a selective term (ip, host, plugin, severity, port, country, l9fp, time)`)
      }
      if (!matches(query, JSON.parse(view.text(id)), view.seen(id))) continue
    }
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
 * Every match, newest first, `batch` at a time with a turn of the event loop between
 * batches (lookups are answered meanwhile); no scan limit. Candidates and their order are
 * taken when it starts; an event re-observed meanwhile comes with its newest bytes.
 */
export async function* searchAll(view: SearchView, query: Query, batch: number): AsyncGenerator<Buffer> {
  let work = 0
  for (const { id, exact } of candidates(view, query)) {
    if (++work >= batch) {
      work = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (exact || matches(query, JSON.parse(view.text(id)), view.seen(id))) yield view.bytes(id)
  }
}

/**
 * Every match with its seen times, one resource's events together (Store.searchByResource).
 * The matching ids are collected first (4 bytes each, evaluated `batch` at a time), then put in
 * resource order by a counting sort on the store's address and name numbers: O(matches +
 * addresses + names) time and typed arrays of that size, nothing per event beyond. Events with
 * neither an address nor a valid name (rare) are grouped by their host as written.
 */
export function searchByResource(view: SearchView, query: Query, batch: number): BatchedIterable<SeenEvent> {
  return {
    batches: () => byResource(view, query, batch),
    async *[Symbol.asyncIterator]() {
      for await (const events of byResource(view, query, batch)) yield* events
    },
  }
}

/** searchByResource's events, `batch` at a time (the last batch may be shorter). */
async function* byResource(view: SearchView, query: Query, batch: number): AsyncGenerator<SeenEvent[]> {
  let ids = new Int32Array(1024)
  let n = 0
  let work = 0
  for (const { id, exact } of candidates(view, query)) {
    if (++work >= batch) {
      work = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (!exact && !matches(query, JSON.parse(view.text(id)), view.seen(id))) continue
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

/** Candidates in the scope, newest first, each with whether it surely matches. */
function* candidates(view: SearchView, query: Query): Generator<{ id: number; exact: boolean }> {
  const chosen = plan(query.cond, view.index)
  const inScope =
    query.scope === 'any' ? (id: number) => !view.isGone(id) : query.scope === 'leak' ? (id: number) => view.isLeak(id) && !view.isGone(id) : (id: number) => !view.isLeak(id) && !view.isGone(id)
  const exact = chosen.exact
  const order = view.index.order.snapshot()
  const item = { id: 0, exact }
  if (chosen.kind === 'ids' && chosen.ids.length * 16 < order.length) {
    // Few: sort them by time.
    const ids = Array.from(chosen.ids).filter(inScope)
    ids.sort((a, b) => view.ms(b) - view.ms(a) || view.ns(b) - view.ns(a) || b - a)
    for (const id of ids) {
      item.id = id
      yield item
    }
    return
  }
  let from = 0
  let to = order.length
  let marked: Uint8Array | undefined
  if (chosen.kind === 'ids') {
    // Many: mark them, and walk the time order.
    marked = new Uint8Array(view.idLimit()) // by id: ids of deleted events leave gaps
    for (const id of chosen.ids) marked[id] = 1
  } else if (chosen.kind === 'time') {
    if (chosen.lo) {
      const [ms, ns] = split(BigInt(chosen.lo.value))
      from = TimeOrder.lowerBound(order, ms, ns, !chosen.lo.inclusive, view.ms, view.ns)
    }
    if (chosen.hi) {
      const [ms, ns] = split(BigInt(chosen.hi.value))
      to = TimeOrder.lowerBound(order, ms, ns, chosen.hi.inclusive, view.ms, view.ns)
    }
  }
  for (let i = to - 1; i >= from; i--) {
    const id = order[i]!
    if ((marked !== undefined && marked[id] !== 1) || !inScope(id)) continue
    item.id = id
    yield item
  }
}
