/** The one interface every converter implements, and what a converter yields. */
import type { Event } from '../schema/index.js'

/** A record that could not be converted: reported and counted, never dropped silently. */
export interface Problem {
  kind: 'problem'
  /** Where in the input: `line 12`, or an XML element path such as `/nmaprun/host[3]/ports/port[2]`. */
  where: string
  /** 1-based line of the input where the record starts, when known. */
  line?: number
  reason: string
  /**
   * The start of the record's text, when the converter has it: `--from auto` checks with it
   * whether the record fits the format it guessed (registry.ts, fitsGuess).
   */
  text?: string
  /** Only for a bug of ours met on this record (an internal error): its stack trace. */
  stack?: string
}

export interface ConvertContext {
  /** Canonical UTC time to use for records that carry no time of their own (the run's start). */
  runStart: string
  /** event_fingerprint version to compute. */
  fingerprint: 1 | 2
  /** Largest line (or XML token) accepted, in bytes. */
  maxLineBytes: number
  /**
   * The input is known to be JSON Lines (its first line was one JSON value): a converter that
   * also reads a document spread over lines must not choose again. Set for `--jobs` blocks.
   */
  jsonLines?: boolean
}

export interface Converter {
  /** Format name used by `--from`, e.g. `nmap-xml`, `masscan-json`, `httpx`. */
  name: string
  /** The tool's name: becomes `event_source` and is the first entry of `event_pipeline`. */
  tool: string
  /** One line for `l9kit convert --help`. */
  description: string
  /** True when the first bytes of the input (up to 4 KiB, as text) look like this format. */
  detect(head: string): boolean
  /** Streams events (finished by finishEvent) and problems, in input order, with bounded memory. */
  convert(input: AsyncIterable<Uint8Array>, ctx: ConvertContext): AsyncIterable<Event | Problem>
}

export const isProblem = (item: Event | Problem): item is Problem => (item as Problem).kind === 'problem'
