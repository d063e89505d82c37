/**
 * `--from auto`'s guess, and what it says when later records do not fit it. The format is
 * taken from the input's first record (registry.ts, detectFormat); a later record that the
 * guessed format's own detector does not recognise is reported with the guess and the way
 * out: `… (taken as zmap from line 1; use --from sx to force another)`, naming the format
 * that does recognise the record when one does. Every detector in the registry takes part,
 * so a new format's detector is all it needs. Log lines (`[INF] …`) are not misfits.
 */
import { jsonHead, LOG_LINE } from './common/records.js'
import { autoRecords } from './dispatch.js'
import { CONVERTERS, converterNamed, detectFormat } from './registry.js'
import type { Converter, Problem } from './types.js'

/** What `auto` took an input for, and the 1-based line of the record it judged by. */
export interface Guess {
  converter: Converter
  line: number
}

/** Records that did not fit a guess: how many, and which formats recognised them. */
export interface Misfits {
  count: number
  /** Format name → records it recognised (`<format>` for records no format recognises). */
  formats: Map<string, number>
}

/** The guess for an input's head, or undefined when no format recognises it. */
export function guessFormat(head: string): Guess | undefined {
  const converter = detectFormat(head)
  return converter ? { converter, line: firstRecordLine(head) } : laterJsonRecord(head)
}

/** Whole lines of the head a JSON input's later records are looked for in. */
const LATER_LINES = 200

/**
 * A JSON Lines input whose first record no format claims (a stray object, another tool's
 * status line): the first later record of the head that a JSON format claims decides, so
 * `auto` converts record by record and reports the unclaimed ones (counted) instead of
 * refusing the whole input.
 */
function laterJsonRecord(head: string): Guess | undefined {
  const text = jsonHead(head)
  if (text === undefined || !text.startsWith('{')) return undefined
  const before = head.replace(/^\uFEFF/, '').length - text.length
  const skipped = head.replace(/^\uFEFF/, '').slice(0, before).split('\n').length - 1
  const lines = text.split('\n')
  lines.pop() // the last one may be cut
  for (let i = 0; i < Math.min(lines.length, LATER_LINES); i++) {
    const line = lines[i]!.trim()
    if (!line.startsWith('{')) continue
    const claimed = CONVERTERS.find((c) => {
      try {
        return c.records !== undefined && c.detect(line)
      } catch {
        return false
      }
    })
    if (claimed) return { converter: claimed, line: skipped + i + 1 }
  }
  return undefined
}

/**
 * Whether `auto` converts an input guessed as `guess` record by record: a JSON input (its first
 * record is JSON) of a format that reads JSON records. Each record then goes to the format
 * that claims it (dispatch.ts); other inputs are converted with the guessed format, and their
 * records that do not fit it are reported with the guess (guessedConverter).
 */
export const perRecord = (guess: Guess, head: string) => guess.converter.records !== undefined && jsonHead(head) !== undefined

/** The converter for `auto` on an input guessed as `guess`, by the format's name (also in a `--jobs` worker). */
export function autoConverterFor(guessName: string): Converter {
  return autoRecords(CONVERTERS, converterNamed(guessName))
}

/** The line of the first record: after blank lines, `#` comments and log lines. */
function firstRecordLine(head: string): number {
  const lines = head.replace(/^\uFEFF/, '').split('\n')
  const i = lines.findIndex((l) => l.trim() !== '' && !l.trim().startsWith('#') && !LOG_LINE.test(l))
  return i === -1 ? 1 : i + 1
}

/** Stands for a format when none recognises a record. */
const ANY = '<format>'

/** `taken as X from line N; use --from Y to force another`. */
export const guessNote = (guess: Guess, other: string = ANY) => `taken as ${guess.converter.name} from line ${guess.line}; use --from ${other} to force another`

/** The format that recognises a record's text (not the guessed one), or ANY; undefined when the record fits the guess. */
export function misfitFormat(guess: Guess, text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '' || LOG_LINE.test(text)) return undefined
  const fits = (c: Converter) => {
    try {
      return c.detect(text)
    } catch {
      return false
    }
  }
  if (fits(guess.converter)) return undefined
  return CONVERTERS.find((c) => c !== guess.converter && fits(c))?.name ?? ANY
}

/**
 * Misfits as plain counts, one per format in registry order and one for `<format>`: what a
 * worker thread (`--jobs`) sends back, summed across blocks by index.
 */
export function misfitCounts(misfits: Misfits): number[] {
  return [...CONVERTERS.map((c) => misfits.formats.get(c.name) ?? 0), misfits.formats.get(ANY) ?? 0]
}

/** misfitCounts() back into Misfits. */
export function misfitsFrom(counts: readonly number[]): Misfits {
  const names = [...CONVERTERS.map((c) => c.name), ANY]
  const formats = new Map<string, number>()
  counts.forEach((n, i) => {
    if (n > 0 && names[i] !== undefined) formats.set(names[i]!, n)
  })
  return { count: counts.reduce((a, b) => a + b, 0), formats }
}

/** The closing line for an input whose records did not all fit the guess, or undefined. */
export function misfitSummary(name: string, guess: Guess, misfits: Misfits): string | undefined {
  if (misfits.count === 0) return undefined
  const records = misfits.count === 1 ? 'record' : 'records'
  return `${name}: ${misfits.count} ${records} did not fit ${guess.converter.name} (${guessNote(guess, likeliestFormat(misfits))})`
}

/** The most frequent format among misfits, for the closing note. */
export function likeliestFormat(misfits: Misfits): string {
  let best = ANY
  let most = 0
  for (const [name, n] of misfits.formats) {
    if (name !== ANY && n > most) [best, most] = [name, n]
  }
  return best
}

/**
 * The guessed converter, whose problems for records that do not fit the guess carry the
 * guess note; `misfits` (when given) counts them.
 */
export function guessedConverter(guess: Guess, misfits?: Misfits): Converter {
  const inner = guess.converter
  return {
    ...inner,
    async *convert(input, ctx) {
      for await (const item of inner.convert(input, ctx)) {
        if ((item as Problem).kind !== 'problem') {
          yield item
          continue
        }
        const problem = item as Problem
        const other = misfitFormat(guess, problem.text)
        if (other === undefined) {
          yield problem
          continue
        }
        if (misfits) {
          misfits.count++
          misfits.formats.set(other, (misfits.formats.get(other) ?? 0) + 1)
        }
        yield { ...problem, reason: `${problem.reason} (${guessNote(guess, other)})` }
      }
    },
  }
}
