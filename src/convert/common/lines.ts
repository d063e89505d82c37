/**
 * The driver shared by the plain-text line converters (hostport, url, zmap, rustscan, sx):
 * one record per non-blank line, `#` comments skipped, each line mapped and finished.
 */
import { guarded, readLines } from '../../jsonl/index.js'
import type { Event } from '../../schema/index.js'
import { finishEvent } from '../finish.js'
import type { ConvertContext, Converter, Problem, RecordRules } from '../types.js'
import { isUnconvertible, type Mapped, mappedItems, type Unconvertible } from './records.js'
import { type Json, obj } from './values.js'

/** Maps one trimmed, non-blank, non-comment line. */
export type LineMap = (line: string, ctx: ConvertContext) => Mapped

export interface LineFormat {
  name: string
  tool: string
  description: string
  detect(head: string): boolean
  /** Converts one trimmed, non-blank, non-comment line. */
  map: LineMap
  /**
   * For formats whose lines depend on earlier ones (ZMap's CSV header row): a fresh `map`
   * for each input, used instead of `map`.
   */
  reader?(): LineMap
  /** The format's JSON records, for one with a JSON mode (sx, ZMap): see Converter.records. */
  records?: RecordRules
}

/** A line holding one JSON object (line formats that also have a JSON mode: ZMap, sx), or why not. */
export function jsonLine(line: string): { json: Json } | Unconvertible {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return { reason: `not valid JSON: ${(error as Error).message}` }
  }
  const json = obj(value)
  return json ? { json } : { reason: 'expected a JSON object' }
}

/** The first line of `head` that is neither blank nor a `#` comment (undefined when none). */
export function firstDataLine(head: string): string | undefined {
  for (const raw of head.replace(/^\uFEFF/, '').split('\n')) {
    const line = raw.trim()
    if (line !== '' && !line.startsWith('#')) return line
  }
  return undefined
}

/** A Converter for a plain-text line format. */
export function lineConverter(format: LineFormat): Converter {
  return {
    name: format.name,
    tool: format.tool,
    description: format.description,
    detect: format.detect,
    ...(format.records ? { records: format.records } : {}),
    async *convert(input, ctx) {
      const map = format.reader?.() ?? format.map
      for await (const l of readLines(input, { maxLineBytes: ctx.maxLineBytes })) {
        if ('error' in l) {
          yield problem(l.line, l.error.message)
          continue
        }
        const text = l.text.trim()
        if (text.startsWith('#')) continue
        let mapped: Mapped
        try {
          mapped = map(text, ctx)
        } catch (error) {
          mapped = { reason: `cannot convert: ${(error as Error).message}` }
        }
        for (const one of mappedItems(mapped)) {
          if (isUnconvertible(one)) yield { ...problem(l.line, one.reason), text: text.slice(0, 4096) }
          else yield guarded<Event | Problem>(() => finishEvent(one, format.tool, ctx, `line ${l.line}`, l.line), (issue) => ({ ...problem(l.line, issue.message), stack: issue.stack }))
        }
      }
    },
  }
}

const problem = (line: number, reason: string): Problem => ({ kind: 'problem', where: `line ${line}`, line, reason })
