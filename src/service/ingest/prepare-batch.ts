/**
 * The trip of a batch of documents to a prepare worker and back (prepare-pool.ts,
 * prepare-worker.ts): what is sent (texts, or UTF-8 bytes: moved to a thread rather than
 * copied, copied to a child process) and the compact answer, in which documents kept as they
 * were sent carry only their index fields.
 */
import type { Instant } from '../../time/index.js'
import { KEPT_AS_SENT, type Prepared, type PrepareResult } from '../store/prepare.js'

/**
 * A batch of documents for a prepare worker: each item is either a document's text, or the
 * end offset in `bytes` of a document given as UTF-8 (it starts where the previous such one
 * ended). `bytes` is moved to a worker thread, not copied.
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
 * A prepare worker's answer, compact for the trip back (objects and strings cost the
 * receiving thread the most). Per document, `results` has its refusal, or null for an
 * accepted one, whose fields are then the next fifteen of `kept`: leak, ip, name, time,
 * severity, identity, the six search fields (source … asn), and where its canonical bytes are (buffer, start, end). Buffer 0 is
 * `bytes`, the batch's own buffer (moved back by a thread; left out by a child process, as the
 * sender still has it), which holds the documents kept as they were sent (most of a bulk
 * load); buffer 1 is `written`, the bytes of the documents the worker serialised (normalised
 * ones, and texts sent as strings), moved or copied likewise. So the receiving thread
 * (the one that answers lookups) neither decodes nor encodes JSON.
 */
export interface PreparedAnswer {
  results: (PrepareResult | null)[]
  kept: (boolean | string | bigint | number)[]
  bytes: Uint8Array
  written: Uint8Array
}

/** Fields per accepted document in PreparedAnswer.kept. */
const FIELDS = 15

/** The answer for `batch`, whose documents are `texts`, given their prepare() results. */
export function packAnswer(batch: PrepareBatch, texts: readonly string[], results: readonly PrepareResult[]): PreparedAnswer {
  // Where each document kept as sent sits in the batch's buffer (-1: the worker writes its bytes).
  const from: number[] = new Array(results.length)
  let at = 0
  let size = 0
  let anyKept = false
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    const item = batch.items[i]!
    const start = at
    if (typeof item === 'number') at = item
    from[i] = r.ok && typeof item === 'number' && r.json === texts[i] ? start : -1
    if (from[i] !== -1) anyKept = true
    else if (r.ok) size += Buffer.byteLength(r.json)
  }
  const written = Buffer.allocUnsafeSlow(size)
  // The batch's buffer goes back only when it holds kept documents (else it is freed here).
  const answer: PreparedAnswer = { results: new Array(results.length), kept: [], bytes: anyKept ? batch.bytes : new Uint8Array(0), written }
  let end = 0
  for (let i = 0; i < results.length; i++) {
    const r = results[i]!
    if (!r.ok) {
      answer.results[i] = r
      continue
    }
    answer.results[i] = null
    answer.kept.push(r.leak, r.ip, r.name, r.time, r.severity, r.identity, r.source, r.fingerprint, r.port, r.countryCode, r.countryName, r.asn)
    if (from[i] !== -1) answer.kept.push(0, from[i]!, batch.items[i] as number)
    else answer.kept.push(1, end, (end += written.write(r.json, end, 'utf8')))
  }
  return answer
}

/** The buffers of an answer to move (not copy) between the threads. */
export const moved = (answer: { bytes: Uint8Array; written?: Uint8Array }): ArrayBuffer[] =>
  [answer.bytes, answer.written].filter((b): b is Uint8Array => b !== undefined && b.byteLength > 0).map((b) => b.buffer as ArrayBuffer)

/** Written bytes smaller than this are copied by the store rather than kept as a slab of their own. */
const KEEP_WRITTEN_BYTES = 64 * 1024

/**
 * Written bytes in a buffer of their own. From a child process they arrive as a view of the
 * whole IPC message (about a third more bytes: the results and the fields of every document);
 * kept as they are, the store would hold all of it as a slab and count the rest as waste. One
 * copy of the bytes that count is cheaper than the store copying them document by document.
 */
function ownBuffer(written: Uint8Array): Uint8Array {
  if (written.byteLength < KEEP_WRITTEN_BYTES || written.byteLength === written.buffer.byteLength) return written
  const own = new Uint8Array(new ArrayBuffer(written.byteLength))
  own.set(written)
  return own
}

/**
 * The results of a packed answer: each accepted document has `json` KEPT_AS_SENT and its
 * bytes as `utf8`. The batch's buffer is offered to the store to keep (`owned`) only when
 * kept documents fill at least 3/4 of it, so that what no event uses stays small; the worker's
 * written bytes hold nothing else, and are offered whenever there are enough of them to make
 * a slab (so the thread that answers lookups does not copy a normalised ingest's bytes).
 * Otherwise the store copies them into its own memory.
 */
export function unpackAnswer(answer: PreparedAnswer): PrepareResult[] {
  const { kept } = answer
  const buffers = [answer.bytes, ownBuffer(answer.written)].map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))
  let keptBytes = 0
  for (let k = 0; k < kept.length; k += FIELDS) if (kept[k + 12] === 0) keptBytes += (kept[k + 14] as number) - (kept[k + 13] as number)
  const owned = [keptBytes * 4 >= buffers[0]!.buffer.byteLength * 3, buffers[1]!.length >= KEEP_WRITTEN_BYTES]
  let k = 0
  return answer.results.map((r) => {
    if (r !== null) return r
    const buffer = kept[k + 12] as number
    const prepared: Prepared = {
      ok: true,
      event: undefined,
      json: KEPT_AS_SENT,
      utf8: buffers[buffer]!.subarray(kept[k + 13] as number, kept[k + 14] as number),
      leak: kept[k] as boolean,
      ip: kept[k + 1] as string,
      name: kept[k + 2] as string,
      time: kept[k + 3] as Instant,
      severity: kept[k + 4] as string,
      identity: kept[k + 5] as string,
      source: kept[k + 6] as string,
      fingerprint: kept[k + 7] as string,
      port: kept[k + 8] as string,
      countryCode: kept[k + 9] as string,
      countryName: kept[k + 10] as string,
      asn: kept[k + 11] as number,
    }
    if (owned[buffer]) prepared.owned = true
    k += FIELDS
    return prepared
  })
}
