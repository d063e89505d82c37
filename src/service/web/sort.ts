/**
 * Sorting the pages' tables. On the server: column headers are links (`?sort=last&dir=desc`),
 * so sorting works without JavaScript and the sorted column carries `aria-sort`. In the page:
 * each row carries its rank under every key (sortRanks), and the page's small script
 * (script.ts) reorders the rows by them when a header is clicked, with no new request; the
 * ranks make its order exactly the server's.
 */
import type { EventRow, FindingRow } from './rows.js'

export const SORT_KEYS = ['severity', 'finding', 'plugin', 'port', 'ip', 'fingerprint', 'first', 'last', 'days'] as const
export type SortKey = (typeof SORT_KEYS)[number]
export type Direction = 'asc' | 'desc'

export interface Sort {
  key: SortKey
  dir: Direction
}

/** Most severe first, then the most recently seen. */
export const DEFAULT_SORT: Sort = { key: 'severity', dir: 'desc' }

/** A column of a sortable table, as the template draws its header. */
export interface SortHeader {
  key: SortKey
  label: string
  /** Link that sorts by this column (the other direction when it is the current one). */
  href: string
  /** `ascending` / `descending` on the current column, else ''. */
  ariaSort: string
  /** ▲ / ▼ on the current column, else ''. */
  arrow: string
  /** What the caption says when sorted by this column ascending, and descending. */
  asc: string
  desc: string
}

/** The sort a query asks for, or an error message naming the bad parameter and the allowed values. */
export function parseSort(query: URLSearchParams, columns: readonly SortKey[]): Sort | string {
  const key = query.get('sort')
  const dir = query.get('dir')
  if (key !== null && !(columns as readonly string[]).includes(key)) {
    return `The query parameter sort=${JSON.stringify(key)} is not a column of this page; use one of ${columns.join(', ')}.`
  }
  if (dir !== null && dir !== 'asc' && dir !== 'desc') {
    return `The query parameter dir=${JSON.stringify(dir)} is not a direction; use asc or desc.`
  }
  if (key === null) return dir === null ? DEFAULT_SORT : { key: DEFAULT_SORT.key, dir }
  return { key: key as SortKey, dir: dir ?? 'asc' }
}

/**
 * The headers of a table with these columns under the current sort. `keep` is the part of the
 * query the links keep (`port=443&`: the host page's port filter), '' for none.
 */
export function sortHeaders(columns: readonly [SortKey, string][], current: Sort, keep = ''): SortHeader[] {
  return columns.map(([key, label]) => {
    const active = current.key === key
    const next: Direction = active && current.dir === 'asc' ? 'desc' : 'asc'
    const [asc, desc] = ORDER_WORDS[key] ?? ['A to Z', 'Z to A']
    return {
      key,
      label,
      href: `?${keep}sort=${key}&dir=${next}`,
      ariaSort: active ? (current.dir === 'asc' ? 'ascending' : 'descending') : '',
      arrow: active ? (current.dir === 'asc' ? '▲' : '▼') : '',
      asc: `${label.toLowerCase()}, ${asc}`,
      desc: `${label.toLowerCase()}, ${desc}`,
    }
  })
}

/** How a caption says the order of a column, ascending and descending (default: A to Z). */
const ORDER_WORDS: Partial<Record<SortKey, [string, string]>> = {
  severity: ['least severe first', 'most severe first'],
  first: ['oldest first', 'newest first'],
  last: ['oldest first', 'newest first'],
  days: ['fewest first', 'most first'],
  port: ['lowest first', 'highest first'],
}

/**
 * For sorting in the page: per row, the text of its `data-r` attribute: its tie rank (last seen
 * newest first, then key: sortRows' tie-break), then its rank under each of `keys` in that order
 * (rows with equal values share a rank). Sorting by a column is then: that rank, times the
 * direction, then the tie rank: exactly sortRows' order, computed here once.
 */
export function sortRanks<R extends EventRow>(rows: readonly R[], keys: readonly SortKey[]): Map<R, string> {
  const columns: number[][] = []
  const index = new Map(rows.map((r, i) => [r, i]))
  const tie = [...rows].sort((a, b) => cmp(b.lastAt, a.lastAt) || cmp(a.key, b.key))
  const tieRank = new Array<number>(rows.length)
  tie.forEach((r, i) => (tieRank[index.get(r)!] = i))
  columns.push(tieRank)
  for (const key of keys) {
    const by = COMPARE[key]
    const order = [...rows].sort(by)
    const rank = new Array<number>(rows.length)
    let current = 0
    order.forEach((r, i) => {
      if (i > 0 && by(order[i - 1]!, r) !== 0) current++
      rank[index.get(r)!] = current
    })
    columns.push(rank)
  }
  return new Map(rows.map((r, i) => [r, columns.map((c) => c[i]).join(' ')]))
}

/** Sorts rows in place by the sort, ties broken by last seen (newest first), then by key. */
export function sortRows<R extends EventRow>(rows: R[], sort: Sort): R[] {
  const sign = sort.dir === 'asc' ? 1 : -1
  const by = COMPARE[sort.key]
  return rows.sort((a, b) => sign * by(a, b) || cmp(b.lastAt, a.lastAt) || cmp(a.key, b.key))
}

const cmp = <T extends string | number | bigint>(a: T, b: T): number => (a < b ? -1 : a > b ? 1 : 0)
const portNumber = (port: string) => (port === '' ? -1 : Number(port))
/** Severity as a number that grows with it: none < another word < info < … < critical; services lowest. */
const severityValue = (row: EventRow) => (row.kind === 'leak' ? 6 - (row as FindingRow).severityRank : -1)
const findingText = (row: EventRow) => (row.kind === 'leak' ? `${(row as FindingRow).type}\n${row.summary}` : row.summary)

const COMPARE: Record<SortKey, (a: EventRow, b: EventRow) => number> = {
  severity: (a, b) => cmp(severityValue(a), severityValue(b)),
  finding: (a, b) => cmp(findingText(a), findingText(b)),
  plugin: (a, b) => cmp(a.plugin, b.plugin),
  port: (a, b) => cmp(portNumber(a.port), portNumber(b.port)) || cmp(a.protocol, b.protocol),
  ip: (a, b) => cmp(a.ip, b.ip),
  fingerprint: (a, b) => cmp(a.fingerprint, b.fingerprint),
  first: (a, b) => cmp(a.firstAt, b.firstAt),
  last: (a, b) => cmp(a.lastAt, b.lastAt),
  days: (a, b) => cmp(a.days, b.days),
}
