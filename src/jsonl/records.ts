/**
 * JSON records from a byte stream: JSON Lines by default, or, when the input is one JSON
 * document spread over several lines, that document (an array gives one record per element
 * unless `arrayElements` is false). The choice is made on the first non-blank line: if it
 * parses alone, the input is JSON Lines.
 */
import type { Issue } from '../validate/issue.js'
import { resyncArray } from './array-resync.js'
import { tooDeep, valueTooDeep } from './depth.js'
import { DEFAULT_MAX_LINE_BYTES, type LineItem, LineSplitter, toBuffer } from './lines.js'
import { badJson, isJsonText, parseRecord } from './parse.js'
import { decodeUtf8 } from './utf8.js'

export type JsonRecord =
  | { line: number; offset: number; text: string; value: unknown }
  | { line: number; offset: number; text: string; error: Issue }

export interface ReadOptions {
  maxLineBytes?: number
  /** Largest whole-document input held in memory before falling back to lines. */
  maxDocumentBytes?: number
  /** The input is known to be JSON Lines: read it so, without choosing on its first line. */
  lines?: boolean
  /**
   * A JSON array spread over several lines gives one record per element (default). False: it is
   * one record like any other JSON text (`l9kit validate` judges the file as JSON Schema does).
   */
  arrayElements?: boolean
}

export const isRecordError = (r: JsonRecord): r is Extract<JsonRecord, { error: Issue }> => 'error' in r

export { badJson }

/** A line as readRecords reads JSON Lines: parsed, or why not (also the --jobs workers' reading). */
export function fromLine(item: LineItem): JsonRecord {
  if ('error' in item) return { line: item.line, offset: item.offset, text: '', error: item.error }
  const parsed = parseRecord(item.text)
  return { line: item.line, offset: item.offset, text: item.text, ...parsed }
}

export async function* readRecords(input: AsyncIterable<Uint8Array | string>, opts: ReadOptions = {}): AsyncGenerator<JsonRecord> {
  const maxLine = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES
  const maxDoc = Math.max(opts.maxDocumentBytes ?? 256 * 1024 * 1024, maxLine)
  let splitter = new LineSplitter(maxLine)
  const out: LineItem[] = []
  const held: Buffer[] = []
  let heldBytes = 0
  let mode: 'undecided' | 'lines' | 'document' = opts.lines ? 'lines' : 'undecided'

  const iterator = input[Symbol.asyncIterator]()
  for (;;) {
    const next = await iterator.next()
    if (next.done) break
    const chunk = toBuffer(next.value)
    if (mode === 'lines') {
      splitter.push(chunk, out)
      for (const item of out) yield fromLine(item)
      out.length = 0
      continue
    }
    held.push(chunk)
    heldBytes += chunk.length
    if (mode === 'undecided') {
      splitter.push(chunk, out)
      if (out.length === 0) continue
      const first = out[0]!
      mode = 'error' in first || !couldStartDocument(first.text) || isJsonText(first.text) ? 'lines' : 'document'
      if (mode === 'lines') {
        held.length = 0
        for (const item of out) yield fromLine(item)
        out.length = 0
        continue
      }
      out.length = 0 // document mode reads the held bytes again
    }
    if (heldBytes > maxDoc) {
      // Too big to be one document: treat what we hold, and the rest, as lines.
      mode = 'lines'
      splitter = resplit(held, maxLine, out)
      for (const item of out) yield fromLine(item)
      out.length = 0
      held.length = 0
    }
  }
  if (mode === 'lines') {
    splitter.end(out)
    for (const item of out) yield fromLine(item)
    return
  }
  if (mode === 'undecided') {
    splitter.end(out)
    if (out.length === 0) return
    const first = out[0]!
    if ('error' in first || isJsonText(first.text) || out.length === 1) {
      for (const item of out) yield fromLine(item)
      return
    }
    out.length = 0
  }
  // One document over several lines.
  const buffer = Buffer.concat(held, heldBytes)
  const text = decodeUtf8(buffer).replace(/^\uFEFF/, '')
  let value: unknown
  try {
    value = JSON.parse(text) // copes with deep nesting; each record is checked below
  } catch {
    // A pretty-printed array with a broken element: the other elements still come out.
    const elements = resyncArray(text)
    const broken = elements?.find((e) => 'error' in e.parsed)
    if (elements && opts.arrayElements === false && broken) {
      // One JSON text that does not parse: one record, with the error of its first broken element.
      yield { line: broken.line, offset: broken.offset, text: '', ...broken.parsed }
      return
    }
    if (elements && opts.arrayElements !== false) {
      for (const e of elements) yield { line: e.line, offset: e.offset, text: '', ...e.parsed }
      return
    }
    // Not one document after all: report line by line, so every bad line is named.
    resplit(held, maxLine, out).end(out)
    for (const item of out) yield fromLine(item)
    return
  }
  const firstLine = lineOfOffset(text, text.search(/\S/))
  if (!Array.isArray(value) || opts.arrayElements === false) {
    yield valueTooDeep(value) ? { line: firstLine, offset: 0, text, error: tooDeep() } : { line: firstLine, offset: 0, text, value }
    return
  }
  const starts = elementStarts(text)
  let line = 1
  let scanned = 0
  for (let i = 0; i < value.length; i++) {
    const at = starts[i] ?? scanned
    for (let nl = text.indexOf('\n', scanned); nl !== -1 && nl < at; nl = text.indexOf('\n', nl + 1)) line++
    scanned = at
    const element: unknown = value[i]
    if (valueTooDeep(element)) yield { line, offset: at, text: '', error: tooDeep() }
    else yield { line, offset: at, text: '', value: element }
  }
}

/** A fresh splitter fed with the held chunks; its complete lines go to `out`. */
function resplit(held: Buffer[], maxLine: number, out: LineItem[]): LineSplitter {
  const splitter = new LineSplitter(maxLine)
  for (const chunk of held) splitter.push(chunk, out)
  return splitter
}

/**
 * Whether a first line that does not parse alone may open a multi-line document: `{` then a
 * member name or the end, `[` then a value or the end. A log line such as `[INF] …` may not.
 */
function couldStartDocument(line: string): boolean {
  const text = line.trim()
  if (text.startsWith('{')) return /^\{\s*(?:"|\}|$)/.test(text)
  if (text.startsWith('[')) return /^\[\s*(?:[[{"\]0-9-]|true|false|null|$)/.test(text)
  return false
}

/** 1-based line of a character offset. */
function lineOfOffset(text: string, offset: number): number {
  let line = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++
  return line
}

/** Character offsets where each top-level element of a JSON array text starts. */
function elementStarts(text: string): number[] {
  const starts: number[] = []
  let depth = 0
  let inString = false
  let expectValue = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue
    if (depth === 1 && expectValue && c !== 0x5d) {
      starts.push(i)
      expectValue = false
    }
    if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      depth++
      if (depth === 1) expectValue = true
    } else if (c === 0x5d || c === 0x7d) depth--
    else if (c === 0x2c && depth === 1) expectValue = true
  }
  return starts
}
