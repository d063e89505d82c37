/**
 * CSV (RFC 4180): a header row, then one row per event with the chosen columns; fields are
 * quoted when they hold a comma, a quote, CR or LF (quotes doubled); rows end in CRLF.
 * Columns are member paths with dots (`http.status`, `ssl.certificate.cn`). Lists are joined
 * with `,` (modules as `name/version`); the header map is written as JSON.
 */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import type { Output } from './types.js'

/** Columns written when `--columns` is not given. */
export const DEFAULT_COLUMNS = ['time', 'event_type', 'event_source', 'ip', 'host', 'port', 'transport', 'protocol', 'http.status', 'http.title', 'leak.severity', 'leak.type']

/** Every column that can be chosen: the leaf members of the event, in canonical order. */
export const CSV_COLUMNS: readonly string[] = leafPaths(emptyEvent() as unknown as Record<string, unknown>, '')

function leafPaths(value: Record<string, unknown>, prefix: string): string[] {
  return Object.entries(value).flatMap(([name, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && name !== 'header' ? leafPaths(v as Record<string, unknown>, `${prefix}${name}.`) : [`${prefix}${name}`],
  )
}

/** One CSV field, quoted when RFC 4180 requires it. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) {
    return value
      .map((v) => (v !== null && typeof v === 'object' ? [(v as { name?: string }).name, (v as { version?: string }).version].filter(Boolean).join('/') : String(v)))
      .join(',')
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

function pick(event: Event, path: readonly string[]): unknown {
  let v: unknown = event
  for (const name of path) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined
  return v
}

/** Thrown for a column that is not a member path; its message lists the valid ones. */
export class UnknownColumnError extends Error {}

/** A CSV output with the given columns (DEFAULT_COLUMNS when empty). */
export function csvOutput(columns: readonly string[] = DEFAULT_COLUMNS): Output {
  const chosen = columns.length ? columns : DEFAULT_COLUMNS
  for (const c of chosen) {
    if (!CSV_COLUMNS.includes(c)) throw new UnknownColumnError(`unknown column '${c}' (columns: ${CSV_COLUMNS.join(', ')})`)
  }
  const paths = chosen.map((c) => c.split('.'))
  return {
    name: 'csv',
    description: 'CSV (RFC 4180) with a header row; columns chosen with --columns',
    eol: '\r\n',
    header: () => chosen.map(csvField).join(','),
    format: (event) => paths.map((p) => csvField(cell(pick(event, p)))).join(','),
  }
}
