/**
 * Search on the PostgreSQL store: the query compiled to a parameterised WHERE clause
 * (query/sql.ts) inside one SELECT, newest first by (last_seen, id), which the indexes of
 * migration 0005 serve in order for the selective fields. A page runs in its own transaction
 * with a statement timeout (its bounded cost; past it, SearchLimitError); bulk export reads
 * every match in keyset pages (after the last row's (last_seen, id)), so no transaction stays
 * open and memory stays bounded.
 */
import type { Sql } from 'postgres'
import type { Query } from '../../../query/index.js'
import { toSql } from '../../../query/sql.js'
import { type SearchPage, SearchLimitError } from '../search.js'

/** The stored JSON with NUL and unpaired surrogates made storable, parsed once per row (OFFSET 0 keeps it one). */
const DOC = ' CROSS JOIN LATERAL (SELECT l9kit_doc(e.json) AS d OFFSET 0) AS x'

/** The SELECT of a search (columns `json`, and for keyset reads `last_seen`, `id`), its parameters, and where its own come next. */
export function searchSelect(query: Query, columns: string): { text: string; params: string[] } {
  const where = toSql(query.cond)
  const params = [...where.params]
  const scope = query.scope === 'any' ? '' : `e.event_type = $${params.push(query.scope)}::text AND `
  return { text: `SELECT ${columns} FROM events AS e${where.needsDoc ? DOC : ''} WHERE ${scope}${where.text}`, params }
}

/** The statement of one page, newest first, and its parameters. */
export function pageStatement(query: Query, page: SearchPage): { text: string; params: string[] } {
  const { text, params } = searchSelect(query, 'e.json')
  const n = params.push(String(page.limit), String(page.offset))
  return { text: `${text} ORDER BY e.last_seen DESC, e.id DESC LIMIT $${n - 1}::bigint OFFSET $${n}::bigint`, params }
}

/** One page, newest first. */
export async function searchPage(sql: Sql, query: Query, page: SearchPage, timeoutMs: number): Promise<Buffer[]> {
  if (page.limit <= 0) return []
  const { text: statement, params } = pageStatement(query, page)
  try {
    const rows = await sql.begin(async (tx) => {
      await tx.unsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`)
      return tx.unsafe(statement, params).raw()
    })
    return (rows as unknown as Buffer[][]).map((row) => row[0]!)
  } catch (error) {
    if ((error as { code?: string }).code === '57014') throw new SearchLimitError(`the search ran past ${timeoutMs} ms: add a selective term (ip, host, plugin, severity, port, country, l9fp, time)`)
    throw error
  }
}

/** Every match, newest first, `batch` rows per statement. */
export async function* searchAll(sql: Sql, query: Query, batch: number): AsyncGenerator<Buffer> {
  const { text, params } = searchSelect(query, 'e.json, e.last_seen::text, e.id::text')
  let after: [string, string] | undefined
  for (;;) {
    const p = [...params]
    const keyset = after === undefined ? '' : ` AND (e.last_seen, e.id) < ($${p.push(after[0])}::numeric, $${p.push(after[1])}::bigint)`
    const statement = `${text}${keyset} ORDER BY e.last_seen DESC, e.id DESC LIMIT $${p.push(String(batch))}::bigint`
    const rows = (await sql.unsafe(statement, p).raw()) as unknown as Buffer[][]
    for (const row of rows) yield row[0]!
    if (rows.length < batch) return
    const last = rows[rows.length - 1]!
    after = [last[1]!.toString('latin1'), last[2]!.toString('latin1')]
  }
}
