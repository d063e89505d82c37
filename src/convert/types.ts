/** The one interface every converter implements, and what a converter yields. */
import type { Event } from '../schema/index.js'
import type { Mapped } from './common/records.js'
import type { Json } from './common/values.js'

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
  /**
   * For a format whose records are JSON objects (all of them, or some: sx and ZMap have a JSON
   * mode): how one record is recognised and converted. `--from auto` converts each record of
   * a JSON input with the format that claims it; an explicit `--from` reports a record that
   * another format claims (dispatch.ts).
   */
  records?: RecordRules
  /** Every record of the input is JSON, read by the one JSON reader (common/records.ts). */
  readsRecords?: true
}

/** How a format recognises and converts one JSON record (Converter.records). */
export interface RecordRules {
  name: string
  tool: string
  /**
   * True when a parsed JSON object is this format's record: its identifying top-level members
   * are there (common/claims.ts). No two formats claim the same record.
   */
  claims(record: Json): boolean
  /** Converts one record; must not throw (a throw is reported as a Problem anyway). */
  map(record: Json, ctx: ConvertContext): Mapped
  /** Events that are already finished (the l9 reader): skip finishEvent(). */
  finished?: boolean
  /** See RecordFormat.canonical (common/records.ts). */
  canonical?(draft: Event, ctx: ConvertContext): boolean
  /** A line that is not JSON, for a format that also has plain lines (sx): its events, or undefined when it is not one. */
  plain?(line: string, ctx: ConvertContext): Mapped | undefined
}

export const isProblem = (item: Event | Problem): item is Problem => (item as Problem).kind === 'problem'
