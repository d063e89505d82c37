/**
 * The trip of a batch of documents to a prepare worker thread and back (prepare-pool.ts,
 * prepare-worker.ts): what is sent (texts, or UTF-8 bytes moved rather than copied) and the
 * compact answer, in which documents kept as they were sent carry only their index fields.
 */
import type { Instant } from '../../time/index.js'
import { KEPT_AS_SENT, type Prepared, type PrepareResult } from '../store/prepare.js'

/**
 * A batch of documents for a prepare worker: each item is either a document's text, or the
 * end offset in `bytes` of a document given as UTF-8 (it starts where the previous such one
 * ended). `bytes` is moved to the worker, not copied.
 */
export interface PrepareBatch {
  bytes: Uint8Array
  items: (number | string)[]
}

/** The documents of a batch as texts (decoded here, on the worker). */
export function batchTexts(batch: PrepareBatch): string[] {
  const bytes = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength)
  let at = 0
  return batch.items.map((item) => {
    if (typeof item === 'string') return item
    const text = bytes.toString('utf8', at, item)
    at = item
    return text
  })
}

/**
 * A prepare worker's answer, compact for the trip between threads (objects cost the most to
 * copy): per document its result, or null for a text kept as it was sent (most of a bulk
 * load), whose fields are then the next eight of `kept`: leak, ip, name, time, severity,
 * identity, and where its bytes are in `bytes` (start and end; -1 for a document sent as text).
 * `bytes` is the batch's buffer, moved back: the kept documents' bytes are stored from it.
 */
export interface PreparedAnswer {
  results: (PrepareResult | null)[]
  kept: (boolean | string | bigint | number)[]
  bytes: Uint8Array
}

/** The answer for `batch`, whose documents are `texts`, given their prepare() results. */
export function packAnswer(batch: PrepareBatch, texts: readonly string[], results: readonly PrepareResult[]): PreparedAnswer {
  const answer: PreparedAnswer = { results: new Array(results.length), kept: [], bytes: batch.bytes }
  let at = 0
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    const item = batch.items[i]!
    const start = typeof item === 'number' ? at : -1
    if (typeof item === 'number') at = item
    if (r.ok && r.json === texts[i]) {
      answer.results[i] = null
      answer.kept.push(r.leak, r.ip, r.name, r.time, r.severity, r.identity, start, start === -1 ? -1 : at)
    } else {
      // The parsed event stays here: the store keeps the JSON, a listener parses it if needed.
      if (r.ok) r.event = undefined
      answer.results[i] = r
    }
  }
  return answer
}

/**
 * The results of a packed answer; texts kept as sent have `json` KEPT_AS_SENT, and those sent
 * as bytes have them as `utf8`, in the returned batch buffer. That buffer is offered to the
 * store to keep (`owned`) only when kept documents fill at least 3/4 of it, so that what no
 * event uses stays small; otherwise the store copies the bytes out of it.
 */
export function unpackAnswer(answer: PreparedAnswer): PrepareResult[] {
  const { kept } = answer
  const bytes = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength)
  let keptBytes = 0
  for (let k = 6; k < kept.length; k += 8) if ((kept[k] as number) !== -1) keptBytes += (kept[k + 1] as number) - (kept[k] as number)
  const owned = keptBytes * 4 >= bytes.buffer.byteLength * 3
  let k = 0
  return answer.results.map((r) => {
    if (r !== null) return r
    const start = kept[k + 6] as number
    const prepared: Prepared = {
      ok: true,
      event: undefined,
      json: KEPT_AS_SENT,
      leak: kept[k] as boolean,
      ip: kept[k + 1] as string,
      name: kept[k + 2] as string,
      time: kept[k + 3] as Instant,
      severity: kept[k + 4] as string,
      identity: kept[k + 5] as string,
    }
    if (start !== -1) {
      prepared.utf8 = bytes.subarray(start, kept[k + 7] as number)
      if (owned) prepared.owned = true
    }
    k += 8
    return prepared
  })
}
