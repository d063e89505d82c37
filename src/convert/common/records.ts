/**
 * The driver shared by the JSON Lines converters (httpx, nuclei, naabu, ZGrab2, dnsx, l9):
 * reads records with line numbers, turns log lines, malformed lines and a truncated final
 * record into Problems, maps each object with the format's `map`, and finishes every event.
 */
import { guarded, type LineItem, LineSplitter, parseRecord, readRecords } from '../../jsonl/index.js'
import { toBuffer } from '../../jsonl/lines.js'
import type { Event } from '../../schema/index.js'
import { finishEvent } from '../finish.js'
import type { ConvertContext, Converter, Problem } from '../types.js'
import { type Json, obj } from './values.js'

/** Why (part of) a record cannot be converted. */
export interface Unconvertible {
  reason: string
}

/**
 * What `map` returns: an event, a list of events (possibly none) and reasons for the parts
 * that could not be converted, or why the whole record cannot be.
 */
export type Mapped = Event | readonly (Event | Unconvertible)[] | Unconvertible

/** True for a reason, false for an event. */
export const isUnconvertible = (item: Event | Unconvertible): item is Unconvertible => typeof (item as Unconvertible).reason === 'string'

export interface RecordFormat {
  name: string
  tool: string
  description: string
  detect(head: string): boolean
  /** Also accept one JSON array (or document) spread over lines, such as nuclei's `-json-export`. */
  documents?: boolean
  /** Converts one record; must not throw (a throw is reported as a Problem anyway). */
  map(record: Json, ctx: ConvertContext): Mapped
  /** Events that are already finished (the l9 reader): skip finishEvent(). */
  finished?: boolean
  /**
   * For a `map` that builds every member in its strict form by construction (from
   * emptyEvent(), canonical values only): true when the few values it cannot bound that way
   * are in range. finishEvent() then skips the strict check of the whole draft; when false
   * or absent, the check (and the normaliser, if needed) runs.
   */
  canonical?(draft: Event, ctx: ConvertContext): boolean
}

/** `[INF] …`, `[WRN] …` and the like: what ProjectDiscovery tools print besides records. */
export const LOG_LINE = /^\s*\[(?:INF|WRN|ERR|FTL|DBG|VER|INFO|WARN|WARNING|ERROR|FATAL|DEBUG)\]/i

/**
 * The input's head from its first JSON line on (skipping blank and log lines), or undefined
 * when the first such line does not start a JSON object or array. Detectors test member
 * names on it (a pretty-printed array spreads the first object over several lines).
 */
export function jsonHead(head: string): string | undefined {
  const text = head.replace(/^\uFEFF/, '')
  let start = 0
  while (start < text.length) {
    const end = text.indexOf('\n', start)
    const line = text.slice(start, end === -1 ? text.length : end).trim()
    if (line !== '' && !LOG_LINE.test(line)) return /^[[{]/.test(line) ? text.slice(start) : undefined
    if (end === -1) break
    start = end + 1
  }
  return undefined
}

/** True when `text` names every one of `members` as a JSON member (`"name":`). */
export const hasMembers = (text: string, ...members: string[]) => members.every((m) => text.includes(`"${m}":`) || new RegExp(`"${m}"\\s*:`).test(text))

interface Item {
  line: number
  text: string
  value?: unknown
  error?: string
}

/** A Converter for a JSON Lines format (or JSON arrays, with `documents`). */
export function recordConverter(format: RecordFormat): Converter {
  return {
    name: format.name,
    tool: format.tool,
    description: format.description,
    detect: format.detect,
    async *convert(input, ctx) {
      const tail = { last: -1 }
      const documents = format.documents === true
      let held: Problem | undefined
      for await (const batch of documents ? documentBatches(input, tail, ctx) : lineBatches(input, tail, ctx)) {
        for (const entry of batch) {
          // Lines are parsed only when their turn comes: a batch holds text, not parsed records.
          const item = documents ? (entry as Item) : lineItem(entry as LineItem)
          if (held) yield held
          held = undefined
          if (item.error !== undefined) {
            held = problem(item.line, item.error, item.text)
            continue
          }
          const out = mapOne(format, item, ctx)
          if (Array.isArray(out)) yield* out
          else yield out
        }
      }
      if (held) {
        // A bad last line with no newline after it is a record cut short (a killed run).
        if (tail.last !== 0x0a && held.reason.startsWith('not valid JSON')) held.reason = `truncated final record: ${held.reason}`
        yield held
      }
    },
  }
}

/**
 * What one record gives, in order: one item (the common case: one event, no list or
 * generator built per record) or a list of them.
 */
function mapOne(format: RecordFormat, item: Item, ctx: ConvertContext): Event | Problem | (Event | Problem)[] {
  const record = obj(item.value)
  if (!record) {
    return problem(item.line, `expected a JSON object, found ${item.value === null ? 'null' : Array.isArray(item.value) ? 'an array' : typeof item.value}`, item.text)
  }
  let mapped: Mapped
  try {
    mapped = format.map(record, ctx)
  } catch (error) {
    return problem(item.line, `cannot convert: ${(error as Error).message}`)
  }
  if (!Array.isArray(mapped)) return finishOne(format, mapped as Event | Unconvertible, item, ctx)
  return (mapped as readonly (Event | Unconvertible)[]).map((one) => finishOne(format, one, item, ctx))
}

function finishOne(format: RecordFormat, one: Event | Unconvertible, item: Item, ctx: ConvertContext): Event | Problem {
  const line = item.line
  if (isUnconvertible(one)) return problem(line, one.reason, item.text)
  if (format.finished) return one
  return guarded<Event | Problem>(
    () => finishEvent(one, format.tool, ctx, `line ${line}`, line, format.canonical?.(one, ctx) === true),
    (issue) => ({ ...problem(line, issue.message), stack: issue.stack }),
  )
}

/** The items of a Mapped value, in order. */
export const mappedItems = (mapped: Mapped): readonly (Event | Unconvertible)[] =>
  Array.isArray(mapped) ? (mapped as readonly (Event | Unconvertible)[]) : [mapped as Event | Unconvertible]

/** How much of a record's text a Problem keeps (for `auto`'s check of its guess). */
const PROBLEM_TEXT = 4096

const problem = (line: number, reason: string, text?: string): Problem => ({
  kind: 'problem',
  where: `line ${line}`,
  line,
  reason,
  ...(text ? { text: text.length > PROBLEM_TEXT ? text.slice(0, PROBLEM_TEXT) : text } : {}),
})

function logOrJson(text: string, parseError: string): string {
  if (LOG_LINE.test(text)) return `log line, not a record: ${text.trim().slice(0, 80)}`
  return parseError
}

/** Records of JSON documents (one array or document over many lines), one per batch. */
async function* documentBatches(input: AsyncIterable<Uint8Array>, tail: { last: number }, ctx: ConvertContext): AsyncGenerator<readonly Item[]> {
  for await (const r of readRecords(watchTail(input, tail), { maxLineBytes: ctx.maxLineBytes, lines: ctx.jsonLines })) {
    if ('error' in r) yield [{ line: r.line, text: r.text, error: logOrJson(r.text, r.error.message) }]
    else yield [{ line: r.line, text: r.text, value: r.value }]
  }
}

// Lines are cut from this much of a chunk at a time: the lines waiting for their turn stay
// few (a 1 MiB chunk's would outlive young-generation collections and be copied by them).
const SLICE_BYTES = 64 * 1024

/**
 * The lines of JSON Lines, a slice of a chunk at a time: the await is per slice, not per
 * line (never the input buffered as one document). Remembers the input's last byte in `tail`.
 */
async function* lineBatches(input: AsyncIterable<Uint8Array>, tail: { last: number }, ctx: ConvertContext): AsyncGenerator<readonly LineItem[]> {
  const splitter = new LineSplitter(ctx.maxLineBytes)
  let out: LineItem[] = []
  for await (const chunk of input) {
    if (chunk.length > 0) tail.last = chunk[chunk.length - 1]!
    const bytes = toBuffer(chunk)
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      splitter.push(bytes.subarray(at, at + SLICE_BYTES), out)
      if (out.length > 0) {
        yield out
        out = []
      }
    }
  }
  splitter.end(out)
  if (out.length > 0) yield out
}

/** One line of JSON Lines as an item: parsed, or why not. */
function lineItem(l: LineItem): Item {
  if ('error' in l) return { line: l.line, text: '', error: l.error.message }
  const parsed = parseRecord(l.text) // refuses a record nested deeper than MAX_DEPTH
  if ('value' in parsed) return { line: l.line, text: l.text, value: parsed.value }
  return { line: l.line, text: l.text, error: parsed.error.code === 'bad_json' ? logOrJson(l.text, parsed.error.message) : parsed.error.message }
}

/** Passes chunks through, remembering the input's last byte. */
async function* watchTail(input: AsyncIterable<Uint8Array>, tail: { last: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of input) {
    if (chunk.length > 0) tail.last = chunk[chunk.length - 1]!
    yield chunk
  }
}
