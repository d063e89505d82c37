/**
 * The loop every masscan format shares: split the input into lines, let the format's parser
 * turn each line into records (or a problem, or nothing), and turn records into events.
 */
import type { Event } from '../../schema/index.js'
import { guarded, readLines } from '../../jsonl/index.js'
import { finishEvent } from '../finish.js'
import type { ConvertContext, Problem } from '../types.js'
import { type MasscanRecord, recordDraft } from './record.js'

export interface LineState {
  /** Time for records without a timestamp; the console's `Starting masscan … at …` sets it. */
  runStart: string
  /** The line is the last one and has no newline: masscan always ends lines, so it was cut. */
  unterminated: boolean
}

/** Why (part of) a line cannot be read. */
export interface LineProblem {
  problem: string
}

/** What a line holds, in order: records and problems; empty or undefined for no record. */
export type LineResult = (MasscanRecord | LineProblem)[] | undefined

export type LineParser = (text: string, state: LineState) => LineResult

export async function* convertLines(input: AsyncIterable<Uint8Array>, ctx: ConvertContext, parse: LineParser): AsyncGenerator<Event | Problem> {
  const tail = { ended: false, lastByte: -1 }
  const state: LineState = { runStart: ctx.runStart, unterminated: false }
  for await (const item of readLines(watchEnd(input, tail), { maxLineBytes: ctx.maxLineBytes })) {
    const where = `line ${item.line}`
    if ('error' in item) {
      yield { kind: 'problem', where, line: item.line, reason: item.error.message }
      continue
    }
    // Lines handed over after the input ended come from the splitter's final flush.
    state.unterminated = tail.ended && tail.lastByte !== 0x0a
    // A bug of ours on one line costs that line only (jsonl/guard.ts).
    yield* guarded(
      () => lineItems(item.text, item.line, state, ctx, parse),
      (issue): Problem[] => [{ kind: 'problem', where, line: item.line, reason: issue.message, stack: issue.stack }],
    )
  }
}

/** The events and problems of one line. */
function lineItems(text: string, line: number, state: LineState, ctx: ConvertContext, parse: LineParser): (Event | Problem)[] {
  const where = `line ${line}`
  const items: (Event | Problem)[] = []
  for (const part of parse(text, state) ?? []) {
    const out = 'problem' in part ? { reason: part.problem } : recordDraft(part, state.runStart)
    if (out === undefined) continue
    if ('reason' in out) {
      // A bad last line with no newline after it is a record cut short (a killed run).
      const reason = state.unterminated ? `truncated final record: ${out.reason}` : out.reason
      items.push({ kind: 'problem', where, line, reason })
    } else items.push(finishEvent(out, 'masscan', ctx, where, line))
  }
  return items
}

/** Passes the chunks through, noting the last byte and when the input ends. */
async function* watchEnd(input: AsyncIterable<Uint8Array>, tail: { ended: boolean; lastByte: number }): AsyncGenerator<Uint8Array> {
  for await (const chunk of input) {
    if (chunk.length > 0) tail.lastByte = chunk[chunk.length - 1]!
    yield chunk
  }
  tail.ended = true
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Bytes as text: UTF-8 when they are valid UTF-8, else one character per byte (nothing lost). */
function bytesToText(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    return Buffer.from(bytes).toString('latin1')
  }
}

/** Undoes masscan's `\xNN` escapes of the list and console formats. */
export function unescapeBanner(text: string): string {
  if (!text.includes('\\x')) return text
  const src = Buffer.from(text, 'utf8')
  const out = Buffer.alloc(src.length)
  let n = 0
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x5c && src[i + 1] === 0x78 && isHex(src[i + 2]) && isHex(src[i + 3])) {
      out[n++] = parseInt(String.fromCharCode(src[i + 2]!, src[i + 3]!), 16)
      i += 3
    } else out[n++] = src[i]!
  }
  return bytesToText(out.subarray(0, n))
}

/** JSON output escapes each non-printable byte as `\u00NN`: reassemble the bytes as text. */
export function jsonBanner(text: string): string {
  let high = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0xff) return text // not byte escapes: already text
    if (c > 0x7f) high = true
  }
  return high ? bytesToText(Buffer.from(text, 'latin1')) : text
}

const isHex = (b: number | undefined) => b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66))
