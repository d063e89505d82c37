/**
 * Which events match a query on the memory store, within bounds: the planner (query/plan.ts)
 * picks candidates from the indexes, newest first; those the plan does not answer exactly are
 * evaluated in batches, by the store's Evaluator (a worker thread, off the thread that answers
 * lookups) or, without one, here in slices of about SLICE_WORK with a turn of the event loop
 * between. Every evaluated event counts its work (query/cost.ts eventWork: reading it plus the
 * query's cost, by its size) against the request's budget, and its number against the store's
 * scan limit; past either, SearchLimitError, after the matches already found are handed out.
 * A signal stops it between batches.
 *
 * This is the one path every search that evaluates events takes: a page, the bulk export's
 * reads, and any count a route makes of a query's matches.
 */
import { eventWork, type Query, queryCost } from '../../../query/index.js'
import { type Plan, plan } from '../../../query/plan.js'
import type { Evaluator } from '../evaluator.js'
import { evaluateBatch, packEvents } from '../evaluator.js'
import { SearchLimitError, type SearchOptions } from '../search.js'
import type { SearchView } from './search.js'
import { split } from './instants.js'
import { TimeOrder } from './time-order.js'

/** Bounds of one evaluation: the request's (work, signal) and the store's (scan limit, evaluator). */
export interface MatchBounds extends SearchOptions {
  /** Events evaluated at most (a page of a search; none for an export). */
  scanLimit?: number
  /** What reaching `scanLimit` is said to mean (default: a page's words). */
  scanLimitMessage?: string
  evaluator?: Evaluator
}

/** Work in one slice evaluated in this thread (about a millisecond). */
const SLICE_WORK = 1_000
/** A batch for the evaluator: this much work, this many events or bytes, whichever comes first. */
const BATCH_WORK = 20_000
const BATCH_EVENTS = 512
const BATCH_BYTES = 1 << 20
/** A search whose whole evaluation is this small, of a query this cheap, is evaluated here even with an evaluator (no round trip). */
const INLINE_WORK = 300
const INLINE_COST = 20
/** Exact candidates handed out between turns of the event loop. */
const EXACT_STEP = 1_000

const SELECTIVE = 'add a selective term (ip, host, plugin, severity, port, country, l9fp, time)'
/** One turn of the event loop: what arrived meanwhile (a lookup) is answered first. */
export const turn = () => new Promise((resolve) => setImmediate(resolve))

/** The plan of `query` over the store's indexes. */
export const planOf = (view: SearchView, query: Query): Plan => plan(query.cond, view.index)

/** The ids `query` matches, newest first, evaluated within `bounds` (see the top of this file). */
export async function* matching(view: SearchView, query: Query, bounds: MatchBounds, chosen = planOf(view, query)): AsyncGenerator<number> {
  const signal = bounds.signal
  if (chosen.exact) {
    let step = 0
    for (const id of candidates(view, query, chosen)) {
      yield id
      if (++step >= EXACT_STEP) {
        step = 0
        await turn()
        signal?.throwIfAborted()
      }
    }
    return
  }
  const cost = queryCost(query).perEvent
  const evaluator = bounds.evaluator
  const budget = bounds.work ?? Infinity
  const scanLimit = bounds.scanLimit ?? Infinity
  let work = 0
  let evaluated = 0
  let sent = false
  let batch: number[] = []
  let batchWork = 0
  let batchBytes = 0
  let over: string | undefined
  /** The batch's matches, in order (ids deleted meanwhile left out). */
  const run = async (final: boolean): Promise<number[]> => {
    const ids = batch
    batch = []
    const inline = evaluator === undefined || (final && !sent && batchWork <= INLINE_WORK && cost <= INLINE_COST)
    batchWork = 0
    batchBytes = 0
    if (ids.length === 0) return []
    const packed = packEvents(query, ids.length, (i) => view.bytes(ids[i]!), (i) => view.seen(ids[i]!))
    let hits: Uint8Array
    if (inline) hits = evaluateBatch(query, packed)
    else {
      sent = true
      hits = await evaluator!.evaluate(packed)
    }
    signal?.throwIfAborted()
    const out: number[] = []
    for (let i = 0; i < ids.length; i++) if (hits[i] === 1 && !view.isGone(ids[i]!)) out.push(ids[i]!)
    if (inline && !final) await turn()
    return out
  }
  for (const id of candidates(view, query, chosen)) {
    if (++evaluated > scanLimit) {
      over = bounds.scanLimitMessage ?? `the search read ${scanLimit} events without filling the page: ${SELECTIVE}`
      break
    }
    const w = eventWork(cost, view.length(id))
    if (work + w > budget) {
      over = `the search did the work its plan allows one request (${budget} units, docs/service.md "Limits") without finishing: ${SELECTIVE}`
      break
    }
    work += w
    batch.push(id)
    batchWork += w
    batchBytes += view.length(id)
    const full = evaluator === undefined ? batchWork >= SLICE_WORK : batchWork >= BATCH_WORK || batch.length >= BATCH_EVENTS || batchBytes >= BATCH_BYTES
    if (full) yield* await run(false)
  }
  yield* await run(true)
  if (over !== undefined) throw new SearchLimitError(over)
}

/** Candidates in the scope, newest first (all match when the plan is exact; else the evaluator decides). */
function* candidates(view: SearchView, query: Query, chosen: Plan): Generator<number> {
  const inScope =
    query.scope === 'any' ? (id: number) => !view.isGone(id) : query.scope === 'leak' ? (id: number) => view.isLeak(id) && !view.isGone(id) : (id: number) => !view.isLeak(id) && !view.isGone(id)
  const order = view.index.order.snapshot()
  if (chosen.kind === 'ids' && chosen.ids.length * 16 < order.length) {
    // Few: sort them by time.
    const ids = Array.from(chosen.ids).filter(inScope)
    ids.sort((a, b) => view.ms(b) - view.ms(a) || view.ns(b) - view.ns(a) || b - a)
    yield* ids
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
    yield id
  }
}

/** The exact candidates of a page, synchronously (no evaluation: a lookup-like search stays one call). */
export function exactPage(view: SearchView, query: Query, chosen: Plan, offset: number, limit: number): Buffer[] {
  const out: Buffer[] = []
  let skip = offset
  for (const id of candidates(view, query, chosen)) {
    if (skip > 0) {
      skip--
      continue
    }
    out.push(view.bytes(id))
    if (out.length >= limit) break
  }
  return out
}
