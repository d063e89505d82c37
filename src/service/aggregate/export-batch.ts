/**
 * What goes between an export and its worker thread (export-thread.ts, export-worker.ts): a
 * batch of the export's events in the store's resource order (their bytes one after another,
 * where each ends, their first and last seen), and back the lines the batch completed. A
 * resource's events may span batches: the worker keeps the unfinished resource of each export.
 */
import type { Instant } from '../../time/index.js'
import type { SeenEvent } from '../store/types.js'
import { instantOf } from './aggregate.js'

export interface ExportBatch {
  export: number
  /** The instant the export's aggregations are made at (each batch carries it: the worker keeps no clock). */
  now: Instant
  bytes: ArrayBuffer
  /** Where each event's bytes end in `bytes`. */
  ends: Int32Array
  first: BigInt64Array
  last: BigInt64Array
  /** The export's last batch: the last resource's line comes with its answer. */
  final: boolean
}

/**
 * The lines a batch completed, each ending with a newline: the first `length` bytes of `lines`
 * (absent: none); or why it failed. `spent`: the batch's buffer, given back for the next batch.
 */
export interface ExportAnswer {
  export: number
  lines?: ArrayBuffer
  length?: number
  spent?: ArrayBuffer
  error?: string
}

/** An answer's buffer, written to the client: given back to the worker for later answers. */
export interface ExportRecycle {
  recycle: ArrayBuffer
}

/**
 * The size of a new batch or answer buffer of `bytes`: somewhat more than needed, so that one
 * given back fits the batches and answers after it (they are about the same size).
 */
export const roomFor = (bytes: number): number => Math.max(bytes, ROOM)
const ROOM = 5 << 19 // 2.5 MB

/** The export is over early (the client went away): its unfinished resource is forgotten. */
export interface ExportDrop {
  export: number
  drop: true
}

/**
 * Packs events into a batch: their bytes copied into `spare` (a buffer the worker gave back) when
 * it is large enough, else into a new one of the batch's own, to be moved to the worker.
 */
export function packBatch(id: number, events: readonly SeenEvent[], now: Instant, final: boolean, spare?: ArrayBuffer): ExportBatch {
  let total = 0
  for (const e of events) total += e.json.length
  // Not the shared pool's (it is moved), not zero-filled (every byte used is written).
  const bytes = spare !== undefined && spare.byteLength >= total ? Buffer.from(spare) : Buffer.allocUnsafeSlow(roomFor(total))
  const ends = new Int32Array(events.length)
  const first = new BigInt64Array(events.length)
  const last = new BigInt64Array(events.length)
  let at = 0
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!
    bytes.set(e.json, at)
    at += e.json.length
    ends[i] = at
    first[i] = e.first ?? instantOf(e.firstSeen)
    last[i] = e.last ?? instantOf(e.lastSeen)
  }
  return { export: id, now, bytes: bytes.buffer as ArrayBuffer, ends, first, last, final }
}

/** The buffers a batch or an answer moves instead of copying. */
export function movedOf(m: ExportBatch | ExportAnswer): ArrayBuffer[] {
  if ('ends' in m) return [m.bytes, m.ends.buffer as ArrayBuffer, m.first.buffer as ArrayBuffer, m.last.buffer as ArrayBuffer]
  const out: ArrayBuffer[] = []
  if (m.lines !== undefined) out.push(m.lines)
  if (m.spent !== undefined) out.push(m.spent)
  return out
}
