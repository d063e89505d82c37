/** What an output format does with each event. */
import type { Event } from '../../schema/index.js'

/** An event the format cannot express (no port for `hostport`, …): counted as skipped. */
export interface Skip {
  skip: string
}

export interface Output {
  /** Name used by `--to`. */
  name: string
  /** One line for `l9kit convert --help`. */
  description: string
  /** Text written once before the first record (the CSV header row), without its line end. */
  header?(): string
  /** One record's text without its final line end (it may span several lines), or why there is none. */
  format(event: Event): string | Skip
  /** Line end: `\n`, or `\r\n` for CSV (RFC 4180). */
  eol: '\n' | '\r\n'
}

/** True when the output could not express the event. */
export const isSkip = (value: string | Skip): value is Skip => typeof value !== 'string'
