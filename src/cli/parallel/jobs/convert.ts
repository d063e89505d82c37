/**
 * `convert` on a worker thread, for the JSON Lines converters: the block is read by the
 * converter itself, after empty lines (see lines.ts), and every line number it gives is
 * moved to its place in the whole input. Counts are [converted, skipped, events], then, with
 * `--from auto`, the records that did not fit the guess (misfitCounts()); messages that name
 * an event by number carry a marker (EVENT_MARK) the main thread fills in.
 */
import { autoConverterFor, converterNamed, createOutput, guessedConverter, type Misfits, misfitCounts, type OutputName } from '../../../convert/index.js'
import type { ConvertContext } from '../../../convert/types.js'
import { tooLong } from '../../../jsonl/lines.js'
import { tooLarge } from '../../../jsonl/values.js'
import type { WriteOptions } from '../../../normalize/index.js'
import { asBuffer, OPENING, OPENING_LINES } from '../lines.js'
import { convertItem } from '../../commands/convert-item.js'
import type { JobFactory } from '../types.js'

export interface ConvertJobSettings {
  /** The format, or `auto` (each JSON record by its own format). */
  from: string
  /** With `--from auto`: the format of the input's head. */
  guessFrom?: string
  to: OutputName
  fields: string[]
  /** --csv-raw: CSV cells as they are. */
  csvRaw?: boolean
  /** --header-order and --escape (l9 output). */
  write?: WriteOptions
  ctx: ConvertContext
  /** With `--from auto`: the line the format was taken from (records that do not fit say so). */
  guessLine?: number
}

/** Stands for "the number of event n of this block" in a message. */
export const eventMark = (n: number) => `\u0000${n}\u0000`
export const EVENT_MARK = /\u0000(\d+)\u0000/g

export const create: JobFactory = (setup) => {
  const settings = setup.settings as ConvertJobSettings
  const named = settings.from === 'auto' ? autoConverterFor(settings.guessFrom ?? '') : converterNamed(settings.from)
  if (!named) throw new Error(`no converter ${settings.from}`)
  const guessLine = settings.guessLine
  const output = createOutput(settings.to, { fields: settings.fields, write: settings.write, csvRaw: settings.csvRaw })
  const ctx: ConvertContext = settings.ctx
  return {
    async block(block, out) {
      if (block.tooLong) {
        // As the converter reports a line over the bound.
        out.counts[1]!++
        out.streams[1]!.push(`${setup.file}:${block.firstLine}: ${(block.tooLong === 'value' ? tooLarge(setup.maxLineBytes, block.firstLine) : tooLong(setup.maxLineBytes)).message}`)
        return
      }
      const shift = block.firstLine - 1 - OPENING_LINES
      const input = (async function* () {
        yield OPENING
        for (const part of block.parts) yield asBuffer(part)
      })()
      const misfits: Misfits = { count: 0, formats: new Map() }
      const converter = guessLine === undefined ? named : guessedConverter({ converter: named, line: guessLine }, misfits)
      let events = 0
      for await (const item of converter.convert(input, ctx)) {
        if ('kind' in item && item.kind === 'problem' && item.line !== undefined) {
          item.line += shift
          if (item.where.startsWith('line ')) item.where = `line ${item.line}`
        } else events++
        const result = convertItem(item, setup.file, output, events, eventMark)
        if ('out' in result) {
          out.counts[0]!++
          out.streams[0]!.push(result.out)
        } else {
          out.counts[1]!++
          out.streams[1]!.push(result.err)
        }
      }
      out.counts[2] = events
      if (misfits.count > 0) misfitCounts(misfits).forEach((n, i) => (out.counts[3 + i] = (out.counts[3 + i] ?? 0) + n))
    },
  }
}
