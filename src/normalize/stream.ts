/**
 * Normalising a stream of records. JSON Lines input is read as raw lines, so a line already in
 * canonical form is recognised from its text and passed through without ever being parsed;
 * any other input (one JSON document, a JSON array) goes through readRecords. The choice is
 * readRecords' own: JSON Lines when the first non-blank line is JSON on its own.
 */
import { badJson, DEFAULT_MAX_LINE_BYTES, guarded, isJsonText, isRecordError, type LineItem, LineSplitter, readLines, readRecords } from '../jsonl/index.js'
import type { Issue } from '../validate/issue.js'
import { type NormalizeOptions, resolveOptions } from './context.js'
import { normalizeParsed, type NormalizeTextResult, normalizeTextWith } from './text.js'

export interface NormalizedRecord {
  /** 1-based line where the record starts. */
  line: number
  /** The record's own text ('' for an element of a JSON array, or a line too long to keep). */
  text: string
  /** The parsed value when the record was parsed and has no text of its own. */
  value?: unknown
  result: NormalizeTextResult
}

export interface StreamOptions extends NormalizeOptions {
  maxLineBytes?: number
}

const asBuffer = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))

/** A record that met a bug of ours fails alone (see jsonl/guard.ts). */
const failed = (issue: Issue): NormalizeTextResult => ({ ok: false, errors: [issue] })

/** Normalises every record of a byte stream, in order, with bounded memory. */
export async function* normalizeRecords(input: AsyncIterable<Uint8Array | string>, opts: StreamOptions = {}): AsyncGenerator<NormalizedRecord> {
  const options = resolveOptions(opts)
  const maxLineBytes = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  // Hold the first chunks until the first non-blank line shows what the input is.
  const iterator = input[Symbol.asyncIterator]()
  const held: (Uint8Array | string)[] = []
  const splitter = new LineSplitter(maxLineBytes)
  const first: LineItem[] = []
  let lines = false
  for (;;) {
    const next = await iterator.next()
    if (next.done) break
    held.push(next.value)
    splitter.push(asBuffer(next.value), first)
    if (first.length > 0) {
      const item = first[0]!
      lines = 'error' in item || !/^[[{]/.test(item.text.trimStart()) || isJsonText(item.text)
      break
    }
  }
  const replay = (async function* () {
    yield* held
    held.length = 0
    for (;;) {
      const next = await iterator.next()
      if (next.done) return
      yield next.value
    }
  })()
  if (lines) {
    for await (const item of readLines(replay, { maxLineBytes })) {
      if ('error' in item) yield { line: item.line, text: '', result: { ok: false, errors: [item.error] } }
      else yield { line: item.line, text: item.text, result: guarded(() => normalizeTextWith(item.text, options, badJson), failed) }
    }
    return
  }
  for await (const record of readRecords(replay, { maxLineBytes })) {
    if (isRecordError(record)) yield { line: record.line, text: record.text, result: { ok: false, errors: [record.error] } }
    else yield { line: record.line, text: record.text, value: record.value, result: guarded(() => normalizeParsed(record.value, record.text, options), failed) }
  }
}
