/**
 * Search on the PostgreSQL store: the query compiled to a parameterised WHERE clause
 * (query/sql.ts) inside one SELECT, newest first by (last_seen, id), which the indexes of
 * migration 0005 serve in order for the selective fields. A page runs in its own transaction
 * with a statement timeout (its bounded cost; past it, SearchLimitError); bulk export reads
 * every match in keyset pages (after the last row's (last_seen, id)), so no transaction stays
 * open and memory stays bounded, each statement within the pool's statement timeout (past it,
 * SearchLimitError too). Every statement is cancelled in the server when the search's signal
 * aborts (its client went away): the driver's cancel request, so no connection stays busy
 * with a search nobody waits for.
 */
import type { Sql, TransactionSql } from 'postgres'
import type { Query } from '../../../query/index.js'
import { toSql } from '../../../query/sql.js'
import { type SearchPage, SearchLimitError } from '../search.js'
import { SeenAt } from '../seen-at.js'
import type { SeenEvent } from '../types.js'

/** The stored JSON with NUL and unpaired surrogates made storable, parsed once per row (OFFSET 0 keeps it one). */
const DOC = ' CROSS JOIN LATERAL (SELECT l9kit_doc(e.json) AS d OFFSET 0) AS x'

/**
 * The SELECT of a search (columns `json`, and for keyset reads `last_seen`, `id`; a count's
 * columns), its parameters, and where its own come next. `withDoc` joins the parsed document
 * (`x.d`) even when the condition does not read it.
 */
export function searchSelect(query: Query, columns: string, withDoc = false): { text: string; params: string[] } {
  const where = toSql(query.cond)
  const params = [...where.params]
  const scope = query.scope === 'any' ? '' : `e.event_type = $${params.push(query.scope)}::text AND `
  return { text: `SELECT ${columns} FROM events AS e${where.needsDoc || withDoc ? DOC : ''} WHERE ${scope}${where.text}`, params }
}

/** The statement of one page, newest first, and its parameters. */
export function pageStatement(query: Query, page: SearchPage): { text: string; params: string[] } {
  const { text, params } = searchSelect(query, 'e.json')
  const n = params.push(String(page.limit), String(page.offset))
  return { text: `${text} ORDER BY e.last_seen DESC, e.id DESC LIMIT $${n - 1}::bigint OFFSET $${n}::bigint`, params }
}

/** A search's own bounds: the statement timeout it runs under, and the signal that cancels it. */
export interface StatementBounds {
  timeoutMs: number
  signal?: AbortSignal
}

const SELECTIVE = 'add a selective term (ip, host, plugin, severity, port, country, l9fp, time)'

/**
 * Awaits `query`, cancelling its statement in the server when `signal` aborts (then the
 * signal's reason is thrown); a statement stopped by its timeout is a SearchLimitError.
 *
 * PostgreSQL cancels whatever the connection's backend runs when the cancel request arrives,
 * not a given statement: a statement that finished just before its cancel landed would leave
 * the cancel to stop the next statement on that connection (another request's export, cut or
 * answered 422). So once a cancel is sent, this settles only after the server has taken it (the
 * driver's cancel resolves when the cancel request's connection closes, the backend signalled),
 * and callers run it where the connection is not handed to anyone before then (`reserved`, a
 * transaction).
 */
export async function bounded<T>(query: PromiseLike<T> & { cancel(): unknown }, bounds: StatementBounds): Promise<T> {
  const { signal } = bounds
  signal?.throwIfAborted()
  let cancelling: Promise<unknown> | undefined
  const abort = () => void (cancelling = Promise.resolve(query.cancel()).catch(() => undefined))
  signal?.addEventListener('abort', abort, { once: true })
  try {
    return await query
  } catch (error) {
    if (signal?.aborted) throw signal.reason
    if ((error as { code?: string }).code === '57014') throw new SearchLimitError(`the search's statement ran past ${bounds.timeoutMs} ms: ${SELECTIVE}`)
    throw error
  } finally {
    signal?.removeEventListener('abort', abort)
    await cancelling
  }
}

/**
 * Runs `run` on a connection of its own, handed back to the pool only when `run` has settled:
 * a statement cancelled there (bounded) cannot reach a statement of another request. After a
 * failed statement the connection runs an empty one first: the driver (postgres 3.4) counts a
 * statement's rows until its CommandComplete, so a statement stopped after some rows came (an
 * export cancelled or timed out mid-stream) leaves the count where it was, and the connection's
 * next statement would get that many holes before its rows (the next export failing or cut).
 */
export async function reserved<T>(sql: Sql, run: (connection: Sql) => Promise<T>): Promise<T> {
  const connection = await sql.reserve()
  try {
    return await run(connection)
  } catch (error) {
    await connection.unsafe('SELECT 1 WHERE false').catch(() => undefined)
    throw error
  } finally {
    connection.release()
  }
}

/**
 * Runs the statement `make` gives in a transaction of its own under the bounds' statement
 * timeout, cancelled when their signal aborts (a search page's and a count's one bound).
 */
export async function timedStatement<T>(sql: Sql, bounds: StatementBounds, make: (tx: TransactionSql) => PromiseLike<T> & { cancel(): unknown }): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx.unsafe(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(bounds.timeoutMs))}`)
    return bounded(make(tx), bounds)
  })) as T
}

/** One page, newest first, in a transaction of its own with the page's statement timeout. */
export async function searchPage(sql: Sql, query: Query, page: SearchPage, bounds: StatementBounds): Promise<Buffer[]> {
  if (page.limit <= 0) return []
  const { text: statement, params } = pageStatement(query, page)
  const rows = await timedStatement(sql, bounds, (tx) => tx.unsafe(statement, params).raw())
  return (rows as unknown as Buffer[][]).map((row) => row[0]!)
}

/** Every match, newest first, `batch` rows per statement. */
export async function* searchAll(sql: Sql, query: Query, batch: number, bounds: StatementBounds): AsyncGenerator<Buffer> {
  const { text, params } = searchSelect(query, 'e.json, e.last_seen::text, e.id::text')
  let after: [string, string] | undefined
  for (;;) {
    const p = [...params]
    const keyset = after === undefined ? '' : ` AND (e.last_seen, e.id) < ($${p.push(after[0])}::numeric, $${p.push(after[1])}::bigint)`
    const statement = `${text}${keyset} ORDER BY e.last_seen DESC, e.id DESC LIMIT $${p.push(String(batch))}::bigint`
    const rows = (await reserved(sql, (c) => bounded(c.unsafe(statement, p).raw(), bounds))) as unknown as Buffer[][]
    for (const row of rows) yield row[0]!
    if (rows.length < batch) return
    const last = rows[rows.length - 1]!
    after = [last[1]!.toString('latin1'), last[2]!.toString('latin1')]
  }
}

/**
 * The passes of searchByResource, each read in keyset pages on an index that keeps one
 * resource's rows together: by address (`events_ip`), then rows without one by host name
 * (`events_host_rev`), then rows with neither by the host as written (no index: rare).
 */
const RESOURCE_PASSES = [
  { where: 'e.ip IS NOT NULL', key: 'e.ip', cast: 'inet' },
  { where: 'e.ip IS NULL AND e.host_rev IS NOT NULL', key: 'e.host_rev', cast: 'text' },
  { where: 'e.ip IS NULL AND e.host_rev IS NULL', key: "coalesce(l9kit_doc(e.json)->>'host', '')", cast: 'text' },
] as const

/** Every match with its seen times, one resource's rows together, `batch` rows per statement. */
export async function* searchByResource(sql: Sql, query: Query, batch: number, bounds: StatementBounds): AsyncGenerator<SeenEvent> {
  for (const pass of RESOURCE_PASSES) {
    const { text, params } = searchSelect(query, `e.json, e.first_seen::text, e.last_seen::text, (${pass.key})::text, e.id::text`)
    let after: [string, string] | undefined
    for (;;) {
      const p = [...params]
      const keyset = after === undefined ? '' : ` AND (${pass.key}, e.id) > ($${p.push(after[0])}::${pass.cast}, $${p.push(after[1])}::bigint)`
      const statement = `${text} AND ${pass.where}${keyset} ORDER BY ${pass.key}, e.id LIMIT $${p.push(String(batch))}::bigint`
      const rows = (await reserved(sql, (c) => bounded(c.unsafe(statement, p).raw(), bounds))) as unknown as Buffer[][]
      for (const row of rows) {
        yield new SeenAt(row[0]!, BigInt(row[1]!.toString('latin1')), BigInt(row[2]!.toString('latin1')))
      }
      if (rows.length < batch) break
      const last = rows[rows.length - 1]!
      after = [last[3]!.toString('utf8'), last[4]!.toString('latin1')]
    }
  }
}
