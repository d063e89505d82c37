/**
 * JSON records from a byte stream, read by ValueSplitter (values.ts): JSON Lines, values
 * spread over lines (`jq .` output) and streams of them, a pretty-printed array giving one
 * record per element (unless `arrayElements` is false), several values on one line. Each
 * record keeps the number of the line where it starts.
 */
import type { Issue } from '../validate/issue.js'
import { DEFAULT_MAX_LINE_BYTES, type LineItem, toBuffer } from './lines.js'
import { badJson, parseRecord } from './parse.js'
import { splitLine, ValueSplitter } from './values.js'

export type JsonRecord =
  | { line: number; offset: number; text: string; value: unknown; invalidUtf8?: true }
  | { line: number; offset: number; text: string; error: Issue }

export interface ReadOptions {
  /** Longest line, and longest value spread over lines, accepted (default 64 MiB). */
  maxLineBytes?: number
  /**
   * A JSON array spread over several lines gives one record per element (default). False: it is
   * one record like any other JSON text (`l9kit validate` judges the file as JSON Schema does).
   */
  arrayElements?: boolean
}

export const isRecordError = (r: JsonRecord): r is Extract<JsonRecord, { error: Issue }> => 'error' in r

export { badJson }

/**
 * A record as readRecords reads it (also the --jobs workers' reading): parsed, or why not. An
 * element of a pretty-printed array has no text of its own ('').
 */
export function fromLine(item: LineItem): JsonRecord {
  if ('error' in item) return { line: item.line, offset: item.offset, text: item.text ?? '', error: item.error }
  const parsed = parseRecord(item.text)
  const record: JsonRecord = { line: item.line, offset: item.offset, text: item.element ? '' : item.text, ...parsed }
  if (item.invalidUtf8 && !('error' in record)) record.invalidUtf8 = true
  return record
}

/**
 * The records of one item: one, or for a line holding several values separated by blanks
 * (`{"a":1} {"b":2}`, as jq reads them) one per value. Only a line that does not parse is
 * looked at again, so JSON Lines pays nothing for it.
 */
export function recordsOf(item: LineItem): JsonRecord[] {
  const record = fromLine(item)
  if (!('error' in record) || record.error.code !== 'bad_json' || 'error' in item) return [record]
  const values = splitLine(item.text)
  if (!values) return [record]
  return values.map((text) => ({ line: item.line, offset: item.offset, text, ...parseRecord(text) }))
}

export async function* readRecords(input: AsyncIterable<Uint8Array | string>, opts: ReadOptions = {}): AsyncGenerator<JsonRecord> {
  for await (const items of readItems(input, opts)) for (const item of items) yield* recordsOf(item)
}

/**
 * The items readRecords makes its records of (recordsOf), unparsed: one batch per chunk read.
 * For a loop that looks at a line's text before parsing it (validate's canonical short way),
 * and that handles a chunk's records without awaiting each one.
 */
export async function* readItems(input: AsyncIterable<Uint8Array | string>, opts: ReadOptions = {}): AsyncGenerator<LineItem[]> {
  const splitter = new ValueSplitter(opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, undefined, undefined, { elements: opts.arrayElements !== false })
  for await (const chunk of input) {
    const out: LineItem[] = []
    splitter.push(toBuffer(chunk), out)
    if (out.length > 0) yield out
  }
  const out: LineItem[] = []
  splitter.end(out)
  if (out.length > 0) yield out
}
