/**
 * The registry part of the PostgreSQL HookStore (the `resources` and `hooks` tables): adding
 * within a key's limit, pages, enabling a hook, the config-declared entries, and the matching
 * index each process keeps for its ingest transactions, rebuilt only when the registry's
 * version (migration 0006, moved by triggers on both tables) is not the one it was built at.
 */
import type { Sql, TransactionSql } from 'postgres'
import type { ResourceType } from '../../../schema/index.js'
import { type DeclaredHooks, missingDeclared } from '../declared-hooks.js'
import { newId } from '../hook-ids.js'
import { type HookIndex, type HookIndexFactory, type HookRecord, LimitReached, type NewHook, type Page, type PageRequest, type WatchedResource } from '../hook-types.js'
import { HOOK_COLUMNS, type HookRow, hookRecord } from './hook-rows.js'

/** One owner's adds at a time, so a limit holds when processes add at once. */
const ownerLock = (tx: TransactionSql, schema: string, owner: string) => tx`SELECT pg_advisory_xact_lock(hashtext(${`l9kit-owner ${schema} ${owner}`}))`

export async function addResource(sql: Sql, schema: string, owner: string, type: ResourceType, value: string, limit?: number | null): Promise<WatchedResource> {
  const resource: WatchedResource = { id: newId('res'), owner, type, value }
  await sql.begin(async (tx) => {
    if (limit != null) {
      await ownerLock(tx, schema, owner)
      const [row] = await tx<{ n: number }[]>`SELECT count(*)::integer AS n FROM resources WHERE owner = ${owner}`
      if ((row?.n ?? 0) >= limit) throw new LimitReached('resources', limit)
    }
    await tx`INSERT INTO resources (id, owner, type, value) VALUES (${resource.id}, ${owner}, ${type}, ${value})`
  })
  return resource
}

export async function addHook(sql: Sql, schema: string, hook: NewHook, limit?: number | null): Promise<HookRecord> {
  const record: HookRecord = { ...hook, eventTypes: [...hook.eventTypes], id: newId('hook'), state: 'active', disabledAt: null, disabledReason: null }
  await sql.begin(async (tx) => {
    if (limit != null) {
      await ownerLock(tx, schema, hook.owner)
      const [row] = await tx<{ n: number }[]>`SELECT count(*)::integer AS n FROM hooks WHERE owner = ${hook.owner}`
      if ((row?.n ?? 0) >= limit) throw new LimitReached('hooks', limit)
    }
    await tx`
      INSERT INTO hooks (id, owner, url, min_severity, event_types, secret)
      VALUES (${record.id}, ${hook.owner}, ${hook.url}, ${hook.minSeverity}, ${tx.array(record.eventTypes)}, ${hook.secret})`
  })
  return record
}

/** A cursor is the `seq` of the page's last item; text that is not one starts from the beginning. */
const afterSeq = (cursor: string | null) => (cursor !== null && /^[0-9]{1,18}$/.test(cursor) ? cursor : '0')

/** `rows` asked with LIMIT `limit + 1`: the page, and the cursor of the next one when there is more. */
function pageOf<T>(rows: readonly (T & { cursor: string })[], limit: number, map: (row: T) => T): Page<T> {
  const items = rows.slice(0, limit)
  return { items: items.map(map), next: rows.length > limit ? items[items.length - 1]!.cursor : null }
}

export async function resourcePage(sql: Sql, owner: string, page: PageRequest): Promise<Page<WatchedResource>> {
  // The cursor is named apart from seq: ORDER BY seq must sort the number, not its text.
  const rows = await sql<(WatchedResource & { cursor: string })[]>`
    SELECT id, owner, type, value, seq::text AS cursor FROM resources
    WHERE owner = ${owner} AND seq > ${afterSeq(page.cursor)}::bigint ORDER BY seq LIMIT ${page.limit + 1}`
  return pageOf(rows, page.limit, (r) => ({ id: r.id, owner: r.owner, type: r.type, value: r.value }))
}

export async function hookPage(sql: Sql, owner: string, page: PageRequest): Promise<Page<HookRecord>> {
  const rows = await sql<(HookRow & { cursor: string })[]>`
    SELECT ${sql(HOOK_COLUMNS)}, seq::text AS cursor FROM hooks
    WHERE owner = ${owner} AND seq > ${afterSeq(page.cursor)}::bigint ORDER BY seq LIMIT ${page.limit + 1}`
  const found = pageOf(rows, page.limit, (r) => r)
  return { items: found.items.map(hookRecord), next: found.next }
}

export async function enableHook(sql: Sql, owner: string, id: string): Promise<HookRecord | undefined> {
  const [row] = await sql<HookRow[]>`
    UPDATE hooks SET state = 'active', disabled_at = NULL, disabled_reason = NULL
    WHERE id = ${id} AND owner = ${owner} RETURNING ${sql(HOOK_COLUMNS)}`
  return row === undefined ? undefined : hookRecord(row)
}

/** Adds the declared entries that are missing, one process at a time. */
export async function declare(sql: Sql, schema: string, declared: DeclaredHooks): Promise<void> {
  if (declared.resources.length === 0 && declared.hooks.length === 0) return
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`l9kit-declare-${schema}`}))`
    const resources = await tx<WatchedResource[]>`SELECT id, owner, type, value FROM resources`
    const hooks = await tx<HookRow[]>`SELECT ${tx(HOOK_COLUMNS)} FROM hooks`
    const missing = missingDeclared(declared, [...resources], hooks.map(hookRecord))
    for (const r of missing.resources) {
      await tx`INSERT INTO resources (id, owner, type, value) VALUES (${newId('res')}, ${r.owner}, ${r.type}, ${r.value})`
    }
    for (const h of missing.hooks) {
      await tx`
        INSERT INTO hooks (id, owner, url, min_severity, event_types, secret)
        VALUES (${newId('hook')}, ${h.owner}, ${h.url}, ${h.minSeverity}, ${tx.array([...h.eventTypes])}, ${h.secret})`
    }
  })
}

/** A process's matching index and the registry version it was built at. */
export interface CachedIndex {
  version: string
  index: HookIndex
  /** Active hooks in it (none: nothing to match). */
  hooks: number
}

/**
 * The matching index for this transaction: the cached one while the registry's version has not
 * moved, else one built from the registry as the transaction reads it. The version is read
 * first, so an index is never labelled newer than what it holds (at worst it is rebuilt once more).
 */
export async function registryIndex(tx: TransactionSql, cached: CachedIndex | null, create: HookIndexFactory): Promise<CachedIndex> {
  const [row] = await tx<{ version: string }[]>`SELECT version::text FROM hook_registry`
  const version = row?.version ?? '0'
  if (cached !== null && cached.version === version) return cached
  const hooks = (await tx<HookRow[]>`SELECT ${tx(HOOK_COLUMNS)} FROM hooks WHERE state = 'active' ORDER BY seq`).map(hookRecord)
  const index = create()
  if (hooks.length > 0) {
    for (const resource of await tx<WatchedResource[]>`SELECT id, owner, type, value FROM resources ORDER BY seq`) index.addResource(resource)
  }
  index.setHooks(hooks)
  return { version, index, hooks: hooks.length }
}
