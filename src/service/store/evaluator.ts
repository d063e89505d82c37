/**
 * Evaluating a query against stored events somewhere other than the thread that answers
 * lookups: a store that evaluates in the service's process (the memory store) packs the events
 * a search must read into batches (their bytes, their first and last seen) and hands each to an
 * Evaluator, which answers which of them match. The service gives its store one that runs on a
 * worker thread in the idle scheduling class (search/eval-thread.ts); without one, batches are
 * evaluated in this thread, a slice at a time with a turn of the event loop between slices.
 */
import { matches, parseQuery, type Query, type Scope } from '../../query/index.js'
import type { Instant } from '../../time/index.js'

/** A batch of events to test against one query. */
export interface EvalBatch {
  /** The query's text and scope (the evaluator parses it again: a Query does not cross threads). */
  query: string
  scope: Scope
  /** The events' canonical JSON, one after another. */
  bytes: ArrayBuffer
  /** Where each event's bytes end in `bytes`. */
  ends: Int32Array
  /**
   * First and last seen, each as whole milliseconds and the nanoseconds beyond (instants are
   * nanoseconds over years 0001–9999: more than a 64-bit integer holds).
   */
  firstMs: Float64Array
  firstNs: Int32Array
  lastMs: Float64Array
  lastNs: Int32Array
}

export interface Evaluator {
  /** One byte per event of the batch: 1 when it matches. Rejects when the evaluator failed (or stopped). */
  evaluate(batch: EvalBatch): Promise<Uint8Array>
}

/** Packs events into a batch (`bytes` of each, its first and last seen). */
export function packEvents(query: Query, count: number, bytesOf: (i: number) => Uint8Array, seenOf: (i: number) => { first: Instant; last: Instant }): EvalBatch {
  let total = 0
  for (let i = 0; i < count; i++) total += bytesOf(i).length
  const bytes = Buffer.allocUnsafeSlow(total)
  const ends = new Int32Array(count)
  const [firstMs, firstNs, lastMs, lastNs] = [new Float64Array(count), new Int32Array(count), new Float64Array(count), new Int32Array(count)]
  let at = 0
  for (let i = 0; i < count; i++) {
    const b = bytesOf(i)
    bytes.set(b, at)
    at += b.length
    ends[i] = at
    const seen = seenOf(i)
    firstMs[i] = Number(seen.first / MS)
    firstNs[i] = Number(seen.first % MS)
    lastMs[i] = Number(seen.last / MS)
    lastNs[i] = Number(seen.last % MS)
  }
  return { query: query.text, scope: query.scope, bytes: bytes.buffer as ArrayBuffer, ends, firstMs, firstNs, lastMs, lastNs }
}

const MS = 1_000_000n
const instantAt = (ms: Float64Array, ns: Int32Array, i: number): Instant => BigInt(ms[i]!) * MS + BigInt(ns[i]!)

/** The buffers a batch moves to its evaluator instead of copying them. */
export const batchBuffers = (b: EvalBatch): ArrayBuffer[] => [b.bytes, ...[b.ends, b.firstMs, b.firstNs, b.lastMs, b.lastNs].map((a) => a.buffer as ArrayBuffer)]

/** Queries parsed by an evaluator, by scope and text (a few kept: searches come in repeats). */
export class QueryCache {
  private readonly parsed = new Map<string, Query>()
  constructor(private readonly size = 16) {}

  get(text: string, scope: Scope): Query {
    const key = `${scope}\u0000${text}`
    let query = this.parsed.get(key)
    if (query === undefined) {
      query = parseQuery(text, { scope })
      if (this.parsed.size >= this.size) this.parsed.delete(this.parsed.keys().next().value!)
      this.parsed.set(key, query)
    }
    return query
  }
}

/** Which events of `batch` match `query` (the evaluation itself, wherever it runs). */
export function evaluateBatch(query: Query, batch: EvalBatch): Uint8Array {
  const bytes = Buffer.from(batch.bytes)
  const out = new Uint8Array(batch.ends.length)
  let from = 0
  for (let i = 0; i < batch.ends.length; i++) {
    const to = batch.ends[i]!
    const doc: unknown = JSON.parse(bytes.toString('utf8', from, to))
    if (matches(query, doc, { first: instantAt(batch.firstMs, batch.firstNs, i), last: instantAt(batch.lastMs, batch.lastNs, i) })) out[i] = 1
    from = to
  }
  return out
}
