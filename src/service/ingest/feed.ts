/**
 * Feeding JSON Lines (or a JSON array, or one document) into a store, in batches, with each
 * refused record reported by its line number: used by `POST /admin/events`, `serve --load`
 * and the bundled corpus. JSON Lines go to the store as text (JsonText), so lines already
 * canonical are stored without being parsed; anything else is read with readRecords. A line
 * holding an object is kept as its bytes (JsonText.ofBytes): a large ingest hands them to
 * its workers and stores them without decoding them on this thread.
 */
import { decodeUtf8, DEFAULT_MAX_LINE_BYTES, isJsonText, isRecordError, type LineMaker, type LineProblem, LineSplitter, readRecords } from '../../jsonl/index.js'
import type { Issue } from '../../validate/index.js'
import { isUtf8 } from 'node:buffer'
import { OffloadedIngest } from './offload.js'
import { prepareWorkerUrl, sharedPreparePool } from './prepare-pool.js'
import { Slicer } from './slices.js'
import type { PrepareWorkerKind, WorkerPriority } from './worker-priority.js'
import { JsonText, type Store } from '../store/index.js'

export interface IngestReport {
  accepted: number
  duplicates: number
  rejected: { line: number; errors: Issue[] }[]
}

const BATCH = 1024

/**
 * Inputs larger than this (a big body, `serve --load`) have their documents prepared on worker
 * threads (offload.ts) once this much was read, when the store can take prepared
 * documents; smaller ones are not worth starting a worker for.
 */
const OFFLOAD_BYTES = 1024 * 1024

type Item = { line: number; doc: unknown } | { line: number; error: Issue }

export interface IngestOptions {
  /**
   * The input's size in bytes, when known before reading (a body already received): a large
   * input then goes to the prepare workers from its first line, so that this thread, which
   * answers lookups, never prepares any of it.
   */
  bytes?: number
  /** Priority of the prepare workers (Linux; see worker-priority.ts). */
  workerPriority?: WorkerPriority
  /** What runs the prepare workers: threads (the default) or child processes (see worker-priority.ts). */
  workerKind?: PrepareWorkerKind
}

/** Reads every record of `input` into `store`; malformed lines are rejected, the rest go on. */
export async function ingestStream(store: Store, input: AsyncIterable<Uint8Array | string>, options: IngestOptions = {}): Promise<IngestReport> {
  const report: IngestReport = { accepted: 0, duplicates: 0, rejected: [] }
  let docs: unknown[] = []
  let lines: number[] = []
  // A large body or --load runs in slices that give lookups a turn (slices.ts). An async
  // store (PostgreSQL) waits on I/O anyway and keeps full batches.
  const slicer = new Slicer(1, BATCH)
  let batch = slicer.size
  const flush = async () => {
    if (docs.length === 0) return
    const started = performance.now()
    const pending = store.ingest(docs)
    const result = pending instanceof Promise ? await pending : pending
    if (pending instanceof Promise) batch = BATCH
    else {
      slicer.measured(docs.length, performance.now() - started)
      batch = slicer.size
    }
    report.accepted += result.accepted
    report.duplicates += result.duplicates
    for (const r of result.rejected) report.rejected.push({ line: lines[r.index]!, errors: r.errors })
    docs = []
    lines = []
    await slicer.pause()
  }
  const read = { bytes: 0 }
  // Known to be large: offloaded from the start; otherwise once that much was read.
  const offloadAfter = (options.bytes ?? 0) > OFFLOAD_BYTES ? -1 : OFFLOAD_BYTES
  let offload: OffloadedIngest | undefined
  for await (const items of documents(counted(input, read))) {
    for (const item of items) {
      if (offload === undefined && read.bytes > offloadAfter && store.ingestPrepared !== undefined) {
        const url = prepareWorkerUrl()
        if (url !== undefined) {
          // From here on documents are prepared by the workers; what came before is stored first.
          await flush()
          const pool = sharedPreparePool(url, options.workerPriority, options.workerKind)
          offload = new OffloadedIngest(store as Store & Required<Pick<Store, 'ingestPrepared'>>, pool, report)
        } else read.bytes = -Infinity // no worker module: stay on this thread
      }
      if (offload !== undefined) {
        if ('error' in item) await offload.error(item.line, item.error)
        else {
          const pending = offload.add(item.line, item.doc)
          if (pending) await pending
        }
        continue
      }
      await inThread(item)
    }
  }
  await offload?.finish()
  await flush()
  return report

  async function inThread(item: Item): Promise<void> {
    if ('error' in item) {
      // Keep the report in line order: what came before this line is stored first.
      await flush()
      report.rejected.push({ line: item.line, errors: [item.error] })
      return
    }
    docs.push(item.doc)
    lines.push(item.line)
    if (docs.length >= batch) await flush()
  }
}

/** The chunks of `input`, adding up their sizes in `read.bytes` as they pass. */
async function* counted(input: AsyncIterable<Uint8Array | string>, read: { bytes: number }): AsyncGenerator<Uint8Array | string> {
  for await (const chunk of input) {
    read.bytes += chunk.length
    yield chunk
  }
}

/** Ingests one in-memory text or byte body. */
export function ingestText(store: Store, body: string | Uint8Array, options: Omit<IngestOptions, 'bytes'> = {}): Promise<IngestReport> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body
  return ingestStream(store, once(bytes), { ...options, bytes: bytes.length })
}

/** A line as ingest reads it: its bytes, not decoded (the chunks' memory is never reused). */
interface ByteLine {
  line: number
  bytes: Buffer
}

const byteLine: LineMaker<ByteLine> = (line, _offset, buf, from, to) => ({ line, bytes: buf.subarray(from, to) })

/**
 * The documents of an input, a chunk's worth at a time. As in readRecords, the first
 * non-blank line decides: if it is a JSON value on its own, the input is JSON Lines (a line
 * holding an array gives one document per element); otherwise the whole input is one
 * document spread over lines (readRecords).
 */
async function* documents(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Item[]> {
  const iterator = input[Symbol.asyncIterator]()
  const splitter = new LineSplitter(DEFAULT_MAX_LINE_BYTES, byteLine)
  const out: (ByteLine | LineProblem)[] = []
  const held: (Uint8Array | string)[] = []
  let decided = false
  for (;;) {
    const next = await iterator.next()
    if (!next.done) {
      if (!decided) held.push(next.value)
      splitter.push(typeof next.value === 'string' ? Buffer.from(next.value) : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength), out)
    } else splitter.end(out)
    if (!decided && out.length > 0) {
      decided = true
      const first = out[0]!
      const text = 'bytes' in first ? first.bytes.toString('utf8') : ''
      if ('bytes' in first && /^\s*[[{]/.test(text) && !isJsonText(text)) {
        yield* records(replay(held, iterator))
        return
      }
      held.length = 0
    }
    const items: Item[] = []
    for (const line of out) fromLine(line, items)
    out.length = 0
    if (items.length > 0) yield items
    if (next.done) return
  }
}

function fromLine(item: ByteLine | LineProblem, items: Item[]): void {
  if ('error' in item) return void items.push({ line: item.line, error: item.error })
  const { bytes } = item
  // An object: kept as its bytes when they are valid UTF-8 (then the decoded text is exactly them).
  if (bytes[0] === 0x7b /* { */) return void items.push({ line: item.line, doc: isUtf8(bytes) ? JsonText.ofBytes(bytes) : new JsonText(decodeUtf8(bytes)) })
  const text = decodeUtf8(bytes) // invalid UTF-8: one U+FFFD per byte, as normalize reads it
  if (text.charCodeAt(0) !== 91 /* [ */ && !/^\s+\[/.test(text)) return void items.push({ line: item.line, doc: new JsonText(text, isUtf8(bytes) ? bytes : undefined) })
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return void items.push({ line: item.line, doc: new JsonText(text) }) // the store reports the JSON error
  }
  if (!Array.isArray(value)) return void items.push({ line: item.line, doc: value })
  for (const element of value) items.push({ line: item.line, doc: element })
}

async function* records(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<Item[]> {
  for await (const record of readRecords(input)) {
    yield [isRecordError(record) ? { line: record.line, error: record.error } : { line: record.line, doc: record.value }]
  }
}

/** The chunks already read, then the rest of the iterator. */
async function* replay(held: (Uint8Array | string)[], rest: AsyncIterator<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  yield* held
  for (;;) {
    const next = await rest.next()
    if (next.done) return
    yield next.value
  }
}

/** Body chunk handed to the line splitter: small enough that splitting one is a short slice. */
const BODY_CHUNK = 256 * 1024

/** The body in chunks (a 16 MiB body split in one go would hold the event loop for a while). */
async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array | string> {
  for (let at = 0; at < bytes.length; at += BODY_CHUNK) yield bytes.subarray(at, at + BODY_CHUNK)
}
