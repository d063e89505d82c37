/**
 * CSV (RFC 4180): a header row, then one row per event with the chosen fields; fields are
 * quoted when they hold a comma, a quote, CR or LF (quotes doubled); rows end in CRLF.
 * Fields are member paths with dots (fields.ts). Lists are joined with `,` (modules as
 * `name/version`); objects, the header map among them, are written as JSON.
 */
import { fieldText, fieldValue, LEAF_PATHS, parseFields, UnknownFieldError } from './fields.js'
import type { Output } from './types.js'

/** Columns written when `--fields` is not given. */
export const DEFAULT_COLUMNS = ['time', 'event_type', 'event_source', 'ip', 'host', 'port', 'transport', 'protocol', 'http.status', 'http.title', 'leak.severity', 'leak.type']

/** The leaf member paths, in canonical order (any of them can be a column). */
export const CSV_COLUMNS: readonly string[] = LEAF_PATHS

/** One CSV field, quoted when RFC 4180 requires it. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** Thrown for a column that is not a member path; its message lists the valid ones. */
export const UnknownColumnError = UnknownFieldError

/** A CSV output with the given columns (DEFAULT_COLUMNS when empty). */
export function csvOutput(columns: readonly string[] = DEFAULT_COLUMNS): Output {
  const chosen = parseFields(columns.length ? columns : DEFAULT_COLUMNS)
  return {
    name: 'csv',
    description: 'CSV (RFC 4180) with a header row; columns chosen with --fields',
    eol: '\r\n',
    header: () => chosen.map((f) => csvField(f.name)).join(','),
    format: (event) => chosen.map((f) => csvField(fieldText(fieldValue(event, f)))).join(','),
  }
}
