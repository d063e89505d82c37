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
 * A prepare worker's answer, compact for the trip between threads (objects and strings cost
 * the receiving thread the most): `bytes` holds the canonical UTF-8 bytes of every accepted
 * document, one after another, in a buffer of its own that is moved, not copied; per document,
 * `results` has null for an accepted one, whose fields are then the next seven of `kept` (leak,
 * ip, name, time, severity, identity, and where its bytes end in `bytes`), or its refusal.
 * The receiving thread (the one that answers lookups) thus neither decodes nor encodes JSON.
 */
export interface PreparedAnswer {
  results: (PrepareResult | null)[]
  kept: (boolean | string | bigint | number)[]
  bytes: Uint8Array
}

/** Fields per accepted document in PreparedAnswer.kept. */
const FIELDS = 7

/** The answer for `batch`, whose documents are `texts`, given their prepare() results. */
export function packAnswer(batch: PrepareBatch, texts: readonly string[], results: readonly PrepareResult[]): PreparedAnswer {
  const sent = Buffer.from(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength)
  // Where each document sent as bytes sits in `sent`: a text kept as it came is copied from there.
  const from: number[] = new Array(results.length)
  let at = 0
  let size = 0
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    const item = batch.items[i]!
    from[i] = typeof item === 'number' ? at : -1
    if (typeof item === 'number') at = item
    if (!r.ok) continue
    size += from[i] !== -1 && r.json === texts[i] ? at - from[i]! : Buffer.byteLength(r.json)
  }
  const answer: PreparedAnswer = { results: new Array(results.length), kept: [], bytes: Buffer.allocUnsafeSlow(size) }
  const out = answer.bytes as Buffer
  let end = 0
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    if (!r.ok) {
      answer.results[i] = r
      continue
    }
    const item = batch.items[i]
    if (from[i] !== -1 && r.json === texts[i]) end += sent.copy(out, end, from[i], item as number)
    else end += out.write(r.json, end, 'utf8')
    answer.results[i] = null
    answer.kept.push(r.leak, r.ip, r.name, r.time, r.severity, r.identity, end)
  }
  return answer
}

/**
 * The results of a packed answer: each accepted document has `json` KEPT_AS_SENT and its
 * bytes as `utf8`, a view of the answer's buffer, which the store may keep as it is (`owned`):
 * it holds nothing but accepted documents.
 */
export function unpackAnswer(answer: PreparedAnswer): PrepareResult[] {
  const { kept } = answer
  const bytes = Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength)
  let k = 0
  let start = 0
  return answer.results.map((r) => {
    if (r !== null) return r
    const end = kept[k + 6] as number
    const prepared: Prepared = {
      ok: true,
      event: undefined,
      json: KEPT_AS_SENT,
      utf8: bytes.subarray(start, end),
      owned: true,
      leak: kept[k] as boolean,
      ip: kept[k + 1] as string,
      name: kept[k + 2] as string,
      time: kept[k + 3] as Instant,
      severity: kept[k + 4] as string,
      identity: kept[k + 5] as string,
    }
    start = end
    k += FIELDS
    return prepared
  })
}
