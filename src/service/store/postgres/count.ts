/**
 * Counting on the PostgreSQL store: one statement, every value a parameter. The matches are the
 * search's own SELECT (searchSelect(): the query compiled by query/sql.ts, on the same indexes),
 * kept once (a MATERIALIZED CTE); the total and each facet are grouped from it (UNION ALL), and
 * a window keeps each facet's first values and says how many distinct ones it had. Facets with
 * a column (port, plugin, severity, country, asn, ip, host) group on it; others read the stored
 * JSON. Run like a search page, on the search pool (timedStatement(): the page's statement
 * timeout, then SearchLimitError; cancelled when the request's signal aborts).
 */
import type { Sql } from 'postgres'
import type { Facet } from '../../../query/facets.js'
import type { Query } from '../../../query/index.js'
import { type CountRequest, type CountResult, DEFAULT_FACET_DISTINCT_LIMIT, type FacetCount, tooManyValues } from '../count.js'
import { canonicalIp } from '../../names/ip.js'
import { SearchLimitError } from '../search.js'
import { searchSelect, type StatementBounds, timedStatement } from './search.js'

/** The columns of events a facet groups on, as `m.…` (the CTE keeps them). */
const COLUMN_FACETS: Readonly<Record<string, { column: string; keep: string }>> = {
  port: { column: 'm.port', keep: "m.port <> ''" },
  plugin: { column: 'm.source', keep: "m.source <> ''" },
  severity: { column: 'm.severity', keep: "m.severity <> ''" },
  country: { column: 'm.country_code', keep: "m.country_code IS NOT NULL AND m.country_code <> ''" },
  asn: { column: 'm.asn::text', keep: 'm.asn <> 0' },
}

/** A canonical host name from its label-reversed form (host_rev). */
const UNREVERSED = (rev: string) => `array_to_string(ARRAY(SELECT t FROM unnest(string_to_array(${rev}, '.')) WITH ORDINALITY AS u(t, i) ORDER BY i DESC), '.')`

/** A path of the field table in a JSON path literal (checked: it is written into the SQL text). */
function jsonPath(field: string): string {
  if (!/^[a-z0-9_.]+$/.test(field)) throw new Error(`facet table: field '${field}' cannot be written into SQL`)
  return `'{${field.split('.').join(',')}}'`
}

/** The SELECT giving facet number `f`'s groups: columns f, v (text), a (inet, for ip; else NULL), n. */
function facetGroups(facet: Facet, f: number): string {
  const column = COLUMN_FACETS[facet.name]
  if (column !== undefined) return `SELECT ${f}, ${column.column}, NULL::inet, count(*) FROM m WHERE ${column.keep} GROUP BY ${column.column}`
  if (facet.name === 'ip') return `SELECT ${f}, host(m.ip), m.ip, count(*) FROM m WHERE m.ip IS NOT NULL GROUP BY m.ip`
  if (facet.name === 'host') return `SELECT ${f}, ${UNREVERSED('s.h')}, NULL::inet, s.n FROM (SELECT m.host_rev AS h, count(*) AS n FROM m WHERE m.host_rev IS NOT NULL GROUP BY m.host_rev) AS s`
  const at = `m.d #> ${jsonPath(facet.field)}`
  if (facet.list) {
    const elements = `json_array_elements(CASE WHEN json_typeof(${at}) = 'array' THEN ${at} END)`
    return `SELECT ${f}, s.v, NULL::inet, count(*) FROM m CROSS JOIN LATERAL (SELECT DISTINCT a.j #>> '{}' AS v FROM ${elements} AS a(j) WHERE json_typeof(a.j) = 'string') AS s WHERE s.v <> '' GROUP BY s.v`
  }
  // An integer facet (asn has a column): a number other than 0, as written; else a non-empty string.
  const integer = facet.name === 'http.status'
  const keep = integer ? `json_typeof(${at}) = 'number' AND (${at} #>> '{}') <> '0'` : `json_typeof(${at}) = 'string' AND (${at} #>> '{}') <> ''`
  return `SELECT ${f}, ${at} #>> '{}', NULL::inet, count(*) FROM m WHERE ${keep} GROUP BY ${at} #>> '{}'`
}

/** The statement of a count and its parameters. */
export function countStatement(query: Query, request: CountRequest): { text: string; params: string[] } {
  const needsDoc = request.facets.some(({ facet }) => COLUMN_FACETS[facet.name] === undefined && facet.name !== 'ip' && facet.name !== 'host')
  const columns = `e.port, e.source, e.severity, e.country_code, e.asn, e.ip, e.host_rev${needsDoc ? ', x.d' : ''}`
  const { text, params } = searchSelect(query, columns, needsDoc)
  const groups = ['SELECT 0, NULL::text, NULL::inet, count(*) FROM m', ...request.facets.map(({ facet }, i) => facetGroups(facet, i + 1))]
  const limits = `$${params.push(`{${request.facets.map((r) => r.limit).join(',')}}`)}::int[]`
  const statement =
    `WITH m AS MATERIALIZED (${text}), g(f, v, a, n) AS (${groups.join(' UNION ALL ')}) ` +
    `SELECT f, v, n::text, d::text FROM (SELECT f, v, n, row_number() OVER (PARTITION BY f ORDER BY n DESC, a, v COLLATE "C") AS k, count(*) OVER (PARTITION BY f) AS d FROM g) AS r ` +
    `WHERE f = 0 OR k <= (${limits})[f] ORDER BY f, k`
  return { text: statement, params }
}

/** The total and facets of `query`, within the statement timeout. */
export async function countMatches(sql: Sql, query: Query, request: CountRequest, bounds: StatementBounds): Promise<CountResult> {
  const { text, params } = countStatement(query, request)
  const rows = (await timedStatement(sql, bounds, (tx) => tx.unsafe(text, params))) as unknown as { f: number; v: string | null; n: string; d: string }[]
  const distinct = request.distinctLimit ?? DEFAULT_FACET_DISTINCT_LIMIT
  let total = 0
  const values: FacetCount[][] = request.facets.map(() => [])
  for (const row of rows) {
    const f = Number(row.f)
    if (f === 0) {
      total = Number(row.n)
      continue
    }
    if (Number(row.d) > distinct) throw new SearchLimitError(tooManyValues(request.facets[f - 1]!.facet.name, distinct))
    const v = row.v ?? ''
    // host() writes IPv6 its own way: the stores' spelling is RFC 5952's.
    values[f - 1]!.push({ value: request.facets[f - 1]!.facet.name === 'ip' ? (canonicalIp(v) ?? v) : v, count: Number(row.n) })
  }
  return { total, facets: request.facets.map(({ facet }, i) => ({ name: facet.name, values: values[i]! })) }
}
