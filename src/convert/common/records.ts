/**
 * The driver shared by the JSON converters (httpx, nuclei, naabu, ZGrab2, dnsx, l9, …): reads
 * records with line numbers (JSON Lines, pretty-printed records and streams of them, arrays:
 * jsonl/values.ts), turns log lines, malformed records and a truncated final record into
 * Problems, maps each object with the format's `map`, and finishes every event.
 */
import { guarded, type LineItem, parseRecord, splitLine, ValueSplitter } from '../../jsonl/index.js'
import { toBuffer } from '../../jsonl/lines.js'
import type { Event } from '../../schema/index.js'
import { finishEvent } from '../finish.js'
import type { ConvertContext, Converter, Problem, RecordRules } from '../types.js'
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

export interface RecordFormat extends RecordRules {
  name: string
  tool: string
  description: string
  detect(head: string): boolean
  /**
   * For a `map` that builds every member in its strict form by construction (from
   * emptyEvent(), canonical values only): true when the few values it cannot bound that way
   * are in range. finishEvent() then skips the strict check of the whole draft; when false
   * or absent, the check (and the normaliser, if needed) runs.
   */
  canonical?(draft: Event, ctx: ConvertContext): boolean
}

/**
 * Which format converts a record: the one chosen, or why none does. Called with each parsed
 * object of the input.
 */
export type Pick = (record: Json) => RecordRules | Unconvertible

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

/**
 * The first record of an input's head, parsed, when the head holds it whole (after blank and
 * log lines); undefined otherwise (not JSON, or a first record longer than the head).
 */
export function firstRecord(head: string): Json | undefined {
  const splitter = new ValueSplitter(DETECT_LIMIT)
  const out: LineItem[] = []
  splitter.push(Buffer.from(head.replace(/^\uFEFF/, ''), 'utf8'), out)
  splitter.end(out) // a first record cut by the head's end does not parse: partial()
  for (const item of out) {
    if ('error' in item) continue
    if (LOG_LINE.test(item.text)) continue
    const parsed = parseRecord(item.text)
    return 'value' in parsed ? obj(parsed.value) : undefined
  }
  return undefined
}

/** No record in a head is longer than the head itself. */
const DETECT_LIMIT = 1 << 20

/**
 * A format's `detect(head)`: its claims on the head's first record when the head holds it
 * whole, else `partial(text)`, a look at the member names of a first record longer than the
 * head (a pretty-printed Shodan host look-up, a Censys answer).
 */
export function detectBy(head: string, claims: (record: Json) => boolean, partial?: (text: string) => boolean): boolean {
  const text = jsonHead(head)
  if (text === undefined) return false
  const record = firstRecord(text)
  if (record) return claims(record)
  return partial ? partial(text) : false
}

/** True when `text` names every one of `members` as a JSON member (`"name":`). */
export const hasMembers = (text: string, ...members: string[]) => members.every((m) => text.includes(`"${m}":`) || new RegExp(`"${m}"\\s*:`).test(text))

interface Item {
  line: number
  text: string
  value?: unknown
  error?: string
}

/** A Converter for a JSON format: JSON Lines, values spread over lines, arrays. */
export function recordConverter(format: RecordFormat): Converter {
  return {
    name: format.name,
    tool: format.tool,
    description: format.description,
    detect: format.detect,
    records: format,
    readsRecords: true,
    convert: (input, ctx) => convertRecords(input, ctx, () => format),
  }
}

/**
 * The events and problems of a JSON input, each record converted by the format `pick` gives
 * it; a line that is not JSON goes to `plain`'s plain-line reading when given (sx), when that
 * takes it.
 */
export async function* convertRecords(input: AsyncIterable<Uint8Array>, ctx: ConvertContext, pick: Pick, plain?: RecordRules): AsyncGenerator<Event | Problem> {
  const tail = { last: -1 }
  let held: Problem | undefined
  for await (const batch of lineBatches(input, tail, ctx)) {
    for (const entry of batch) {
      // Records are parsed only when their turn comes: a batch holds text, not parsed records.
      const items = itemsOf(entry)
      const count = Array.isArray(items) ? items.length : 1
      for (let i = 0; i < count; i++) {
        const item = Array.isArray(items) ? items[i]! : items
        if (held) yield held
        held = undefined
        if (item.error !== undefined) {
          const other = plain?.plain && item.text !== '' ? plainOne(plain, item, ctx) : undefined
          if (other) yield* other
          else held = problem(item.line, item.error, item.text)
          continue
        }
        const out = mapOne(pick, item, ctx)
        if (Array.isArray(out)) yield* out
        else yield out
      }
    }
  }
  if (held) {
    // A bad last record with no newline after it is a record cut short (a killed run).
    if (tail.last !== 0x0a && held.reason.startsWith('not valid JSON')) held.reason = `truncated final record: ${held.reason}`
    yield held
  }
}

/** A line that is not JSON, taken by a format's plain-line reading: its events and problems, or undefined. */
function plainOne(format: RecordRules, item: Item, ctx: ConvertContext): (Event | Problem)[] | undefined {
  const text = item.text.trim()
  let mapped: Mapped | undefined
  try {
    mapped = format.plain!(text, ctx)
  } catch (error) {
    mapped = { reason: `cannot convert: ${(error as Error).message}` }
  }
  if (mapped === undefined) return undefined
  return mappedItems(mapped).map((one) => finishOne(format, one, item, ctx))
}

/**
 * What one record gives, in order: one item (the common case: one event, no list or
 * generator built per record) or a list of them.
 */
function mapOne(pick: Pick, item: Item, ctx: ConvertContext): Event | Problem | (Event | Problem)[] {
  const record = obj(item.value)
  if (!record) {
    return problem(item.line, `expected a JSON object, found ${item.value === null ? 'null' : Array.isArray(item.value) ? 'an array' : typeof item.value}`, item.text)
  }
  const format = pick(record)
  if ('reason' in format) return problem(item.line, format.reason, item.text)
  let mapped: Mapped
  try {
    mapped = format.map(record, ctx)
  } catch (error) {
    return problem(item.line, `cannot convert: ${(error as Error).message}`)
  }
  if (!Array.isArray(mapped)) return finishOne(format, mapped as Event | Unconvertible, item, ctx)
  return (mapped as readonly (Event | Unconvertible)[]).map((one) => finishOne(format, one, item, ctx))
}

/** One item of a record's mapping, finished as `format`'s. */
function finishOne(format: RecordRules, one: Event | Unconvertible, item: Item, ctx: ConvertContext): Event | Problem {
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

// Lines are cut from this much of a chunk at a time: the lines waiting for their turn stay
// few (a 1 MiB chunk's would outlive young-generation collections and be copied by them).
const SLICE_BYTES = 64 * 1024

/**
 * The records of the input (jsonl/values.ts), a slice of a chunk at a time: the await is per
 * slice, not per record (never the input buffered as one document). Remembers the input's
 * last byte in `tail`.
 */
async function* lineBatches(input: AsyncIterable<Uint8Array>, tail: { last: number }, ctx: ConvertContext): AsyncGenerator<readonly LineItem[]> {
  const splitter = new ValueSplitter(ctx.maxLineBytes)
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

/** One record as an item: parsed, or why not. */
function lineItem(l: LineItem): Item {
  if ('error' in l) {
    const text = l.text ?? ''
    return { line: l.line, text, error: l.error.code === 'bad_json' ? logOrJson(text, l.error.message) : l.error.message }
  }
  const parsed = parseRecord(l.text) // refuses a record nested deeper than MAX_DEPTH
  if ('value' in parsed) return { line: l.line, text: l.text, value: parsed.value }
  return { line: l.line, text: l.text, error: parsed.error.code === 'bad_json' ? logOrJson(l.text, parsed.error.message) : parsed.error.message }
}

/** The items of one record: one, or one per value of a line holding several (`{…} {…}`). */
function itemsOf(l: LineItem): Item | Item[] {
  const item = lineItem(l)
  if (item.error === undefined || 'error' in l || !item.error.startsWith('not valid JSON')) return item
  const values = splitLine(l.text)
  return values ? values.map((text) => lineItem({ line: l.line, offset: l.offset, text })) : item
}
