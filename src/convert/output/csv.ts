/**
 * CSV (RFC 4180): a header row, then one row per event with the chosen fields; fields are
 * quoted when they hold a comma, a quote, CR or LF (quotes doubled); rows end in CRLF.
 * Fields are member paths with dots (fields.ts). Lists are joined with `,` (modules as
 * `name/version`); objects, the header map among them, are written as JSON.
 *
 * Cells are safe to open in a spreadsheet and to print (unless `raw`): control characters
 * other than line breaks and tabs are escaped (`\u001b`, printable()), and a cell a
 * spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a CR, as
 * OWASP's CSV injection guidance lists them) gets a leading `'`, which spreadsheets show as
 * text; a number such as `-33.8688` is left as it is.
 */
import { printable } from '../../validate/printable.js'
import { fieldText, fieldValue, LEAF_PATHS, parseFields, UnknownFieldError } from './fields.js'
import type { Output } from './types.js'

/** Columns written when `--fields` is not given. */
export const DEFAULT_COLUMNS = ['time', 'event_type', 'event_source', 'ip', 'host', 'port', 'transport', 'protocol', 'http.status', 'http.title', 'leak.severity', 'leak.type']

/** The leaf member paths, in canonical order (any of them can be a column). */
export const CSV_COLUMNS: readonly string[] = LEAF_PATHS

/** What a spreadsheet reads as the start of a formula. */
const FORMULA = /^[=+\-@\t\r]/
/** A plain number (a formula-looking `-` in front of one is its sign). */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/

/** A cell made safe (see the module comment). */
export function safeCell(text: string): string {
  const cell = printable(text, '\n\r\t')
  return FORMULA.test(cell) && !NUMBER.test(cell) ? `'${cell}` : cell
}

/** One CSV field, safe unless `raw`, quoted when RFC 4180 requires it. */
export function csvField(text: string, raw = false): string {
  const cell = raw ? text : safeCell(text)
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell
}

/** Thrown for a column that is not a member path; its message lists the valid ones. */
export const UnknownColumnError = UnknownFieldError

/** A CSV output with the given columns (DEFAULT_COLUMNS when empty); `raw`: cells as they are. */
export function csvOutput(columns: readonly string[] = DEFAULT_COLUMNS, raw = false): Output {
  const chosen = parseFields(columns.length ? columns : DEFAULT_COLUMNS)
  return {
    name: 'csv',
    description: 'CSV (RFC 4180) with a header row; columns chosen with --fields',
    eol: '\r\n',
    header: () => chosen.map((f) => csvField(f.name)).join(','),
    format: (event) => chosen.map((f) => csvField(fieldText(fieldValue(event, f)), raw)).join(','),
  }
}
