/**
 * Normalising a stream of records, read by the one JSON reader (jsonl/values.ts): JSON Lines,
 * pretty-printed documents and streams of them, arrays (an element per record). A record is
 * normalised from its text, so a line already in canonical form is recognised from its text
 * and passed through without ever being parsed.
 */
import { badJson, DEFAULT_MAX_LINE_BYTES, guarded, invalidUtf8Issue, type LineItem, splitLine, ValueSplitter } from '../jsonl/index.js'
import type { Issue } from '../validate/issue.js'
import { type NormalizeOptions, type Options, resolveOptions } from './context.js'
import { type NormalizeTextResult, normalizeTextWith } from './text.js'

export interface NormalizedRecord {
  /** 1-based line where the record starts. */
  line: number
  /** The record's own text ('' for a line too long to keep). */
  text: string
  /** The parsed value when the record was parsed and has no text of its own. */
  value?: unknown
  result: NormalizeTextResult
  /**
   * True when the line's bytes change on output even if its text does not: it ended in CR LF,
   * it is the first line after a byte order mark (both left out), or it held bytes that are not
   * UTF-8 (each written as U+FFFD).
   */
  rewritten?: true
}

export interface StreamOptions extends NormalizeOptions {
  maxLineBytes?: number
}

const asBuffer = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))

/** A record that met a bug of ours fails alone (see jsonl/guard.ts). */
const failed = (issue: Issue): NormalizeTextResult => ({ ok: false, errors: [issue] })

/**
 * Whether a record is the input's first line after a byte order mark: only then does line 1
 * start at byte 3 (the readers, sequential and --jobs, count offsets from the input's first byte).
 */
const atMark = (item: { line: number; offset: number }) => item.line === 1 && item.offset === 3

/**
 * One record normalised: a line, a value spread over lines, an element; several records for
 * a line holding several values (`{…} {…}`, looked for only when the line does not parse).
 */
export function normalizeItem(item: LineItem, options: Options): NormalizedRecord | NormalizedRecord[] {
  if ('error' in item) return { line: item.line, text: item.text ?? '', result: { ok: false, errors: [item.error] } }
  const record: NormalizedRecord = { line: item.line, text: item.text, result: guarded(() => normalizeTextWith(item.text, options, badJson), failed) }
  if (item.crlf || atMark(item)) record.rewritten = true
  if (item.invalidUtf8) {
    // Its bytes change (each bad one becomes U+FFFD's three): said, and named by --check.
    record.rewritten = true
    if (record.result.ok) record.result = { ...record.result, warnings: [invalidUtf8Issue(), ...record.result.warnings] }
  }
  if (record.result.ok || record.result.errors[0]?.code !== 'bad_json') return record
  const values = splitLine(item.text)
  if (!values) return record
  return values.map((text) => ({ line: item.line, text, result: guarded(() => normalizeTextWith(text, options, badJson), failed) }))
}

/** Normalises every record of a byte stream, in order, with bounded memory. */
export async function* normalizeRecords(input: AsyncIterable<Uint8Array | string>, opts: StreamOptions = {}): AsyncGenerator<NormalizedRecord> {
  const options = resolveOptions(opts)
  const splitter = new ValueSplitter(opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES)
  const out: LineItem[] = []
  for await (const chunk of input) {
    splitter.push(asBuffer(chunk), out)
    for (const item of out) {
      const records = normalizeItem(item, options)
      if (Array.isArray(records)) yield* records
      else yield records
    }
    out.length = 0
  }
  splitter.end(out)
  for (const item of out) {
    const records = normalizeItem(item, options)
    if (Array.isArray(records)) yield* records
    else yield records
  }
}
