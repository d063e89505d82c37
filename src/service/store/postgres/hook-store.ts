/**
 * The PostgreSQL HookStore: the registry and the delivery queue in the `resources`, `hooks`
 * and `deliveries` tables (migrations/postgres/0002-hooks.sql), shared by every process on
 * the database.
 * - Outbox: the store's ingest transaction inserts the deliveries of its new events (outbox.ts),
 *   so an event is never stored without its deliveries, whatever happens to the process.
 * - Claims lock heads only (a hook's oldest pending delivery) with FOR UPDATE SKIP LOCKED and
 *   hold them with a lease; a head whose hook has a delivery under lease is not claimable, so
 *   at most one delivery per hook is in flight across all processes.
 * - Wake-ups: every change that may make work claimable sends NOTIFY on the schema's channel
 *   (delivered at commit); each process LISTENs and wakes its dispatcher.
 */
import type { Sql } from 'postgres'
import type { ResourceType } from '../../../schema/index.js'
import type { DeclaredHooks } from '../declared-hooks.js'
import type {
  ClaimedDelivery,
  DeliveryRecord,
  HookIndexFactory,
  HookRecord,
  HookStore,
  NewHook,
  Outcome,
  Page,
  PageRequest,
  QueuedEvent,
  WatchedResource,
} from '../hook-types.js'
import { HOOK_COLUMNS, type DeliveryRow, deliveryRecord, type HookRow, hookRecord } from './hook-rows.js'
import * as registry from './hook-registry.js'
import { insertDeliveries, queueAdded } from './outbox.js'
import type { PostgresStore } from './store.js'

export interface PostgresHookStoreOptions {
  /** Pending deliveries per hook before new ones are parked as failed ("queue full"). Default 10 000. */
  queueLimit?: number
  /** Delivered records kept per hook. Default 1 000. */
  historyLimit?: number
}

export class PostgresHookStore implements HookStore {
  readonly queueLimit: number
  readonly historyLimit: number
  /** The NOTIFY channel: one per schema. */
  readonly channel: string
  private readonly listeners = new Set<() => void>()
  private listening: Promise<{ unlisten(): Promise<void> }> | null = null
  /** Deliveries this process claimed, with the lease end it set. */
  private readonly leases = new Map<string, number>()
  private detach: (() => void) | null = null
  /** The matching index this process's ingests use, with the registry version it reflects. */
  cachedIndex: registry.CachedIndex | null = null

  constructor(
    readonly sql: Sql,
    readonly schema: string,
    options: PostgresHookStoreOptions = {},
  ) {
    this.queueLimit = options.queueLimit ?? 10_000
    this.historyLimit = options.historyLimit ?? 1_000
    this.channel = `l9kit_work_${schema}`.slice(0, 63)
  }

  /**
   * A hook store over `store`'s database whose ingests queue their new events' deliveries, to
   * the hooks an index made by `createIndex` selects (the matching rule, hooks/match-index.ts).
   */
  static async attach(store: PostgresStore, createIndex: HookIndexFactory, options: PostgresHookStoreOptions = {}): Promise<PostgresHookStore> {
    await store.ready()
    const hooks = new PostgresHookStore(store.sql, store.schema, options)
    hooks.detach = store.addIngestHook((tx, added) => queueAdded(tx, hooks, createIndex, added, Date.now()))
    return hooks
  }

  /** Stops queueing ingested events and listening for work (the pool belongs to the store). */
  async close(): Promise<void> {
    this.detach?.()
    this.detach = null
    this.listeners.clear()
    const listening = this.listening
    this.listening = null
    if (listening) await (await listening.catch(() => null))?.unlisten().catch(() => {})
  }

  addResource(owner: string, type: ResourceType, value: string, limit?: number | null): Promise<WatchedResource> {
    return registry.addResource(this.sql, this.schema, owner, type, value, limit)
  }

  async resources(owner?: string): Promise<WatchedResource[]> {
    const rows = await this.sql<WatchedResource[]>`
      SELECT id, owner, type, value FROM resources WHERE ${owner === undefined} OR owner = ${owner ?? ''} ORDER BY seq`
    return rows.map((r) => ({ id: r.id, owner: r.owner, type: r.type, value: r.value }))
  }

  resourcePage(owner: string, page: PageRequest): Promise<Page<WatchedResource>> {
    return registry.resourcePage(this.sql, owner, page)
  }

  async removeResource(owner: string, id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM resources WHERE id = ${id} AND owner = ${owner}`
    return result.count > 0
  }

  addHook(hook: NewHook, limit?: number | null): Promise<HookRecord> {
    return registry.addHook(this.sql, this.schema, hook, limit)
  }

  declare(declared: DeclaredHooks): Promise<void> {
    return registry.declare(this.sql, this.schema, declared)
  }

  async hooks(owner?: string): Promise<HookRecord[]> {
    const rows = await this.sql<HookRow[]>`
      SELECT ${this.sql(HOOK_COLUMNS)} FROM hooks WHERE ${owner === undefined} OR owner = ${owner ?? ''} ORDER BY seq`
    return rows.map(hookRecord)
  }

  hookPage(owner: string, page: PageRequest): Promise<Page<HookRecord>> {
    return registry.hookPage(this.sql, owner, page)
  }

  async hook(owner: string, id: string): Promise<HookRecord | undefined> {
    const [row] = await this.sql<HookRow[]>`SELECT ${this.sql(HOOK_COLUMNS)} FROM hooks WHERE id = ${id} AND owner = ${owner}`
    return row === undefined ? undefined : hookRecord(row)
  }

  async removeHook(owner: string, id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM hooks WHERE id = ${id} AND owner = ${owner}`
    return result.count > 0
  }

  enableHook(owner: string, id: string): Promise<HookRecord | undefined> {
    return registry.enableHook(this.sql, owner, id)
  }

  async enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): Promise<void> {
    if (hookIds.length === 0) return
    await this.sql.begin((tx) => insertDeliveries(tx, this, hookIds.map((hookId) => ({ hookId, event })), now))
    this.wakeLocal()
  }

  async claim(now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
    if (limit <= 0) return []
    const rows = await this.sql<(DeliveryRow & { seq: string; url: string; secret: string; body: string | null })[]>`
      WITH heads AS (
        SELECT head.id FROM hooks h
        CROSS JOIN LATERAL (
          SELECT id, lease_until, next_attempt_at FROM deliveries
          WHERE hook_id = h.id AND status = 'pending' ORDER BY seq LIMIT 1
        ) head
        WHERE head.lease_until <= ${now} AND head.next_attempt_at <= ${now}
          AND NOT EXISTS (
            SELECT 1 FROM deliveries held
            WHERE held.hook_id = h.id AND held.status = 'pending' AND held.lease_until > 0 AND held.lease_until > ${now}
          )
      ), locked AS (
        SELECT d.id FROM deliveries d
        WHERE d.id IN (SELECT id FROM heads) AND d.status = 'pending' AND d.lease_until <= ${now} AND d.next_attempt_at <= ${now}
        ORDER BY d.seq LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE deliveries d SET lease_until = ${now + leaseMs}
      FROM locked, hooks h
      WHERE d.id = locked.id AND h.id = d.hook_id
      RETURNING d.id, d.hook_id, d.fingerprint, d.status, d.attempts, d.last_status, d.last_error,
                d.created_at, d.updated_at, d.next_attempt_at, d.seq, d.body, h.url, h.secret`
    for (const r of rows) this.leases.set(r.id, now + leaseMs)
    // RETURNING has no order: oldest first, as the queues were filled.
    return rows
      .sort((a, b) => Number(a.seq) - Number(b.seq))
      .map((r) => ({ delivery: deliveryRecord(r), url: r.url, secret: r.secret, body: r.body ?? '' }))
  }

  async settle(deliveryId: string, outcome: Outcome, now: number): Promise<void> {
    // Only while this claim still holds it: after its lease ran out, another process may have
    // claimed the delivery again, and that attempt's outcome is the one to keep.
    const lease = this.leases.get(deliveryId) ?? -1
    this.leases.delete(deliveryId)
    if (outcome.kind === 'retry') {
      await this.sql`
        UPDATE deliveries SET attempts = attempts + 1, updated_at = ${now}, last_status = ${outcome.status},
          last_error = ${outcome.error}, next_attempt_at = ${outcome.at}, lease_until = 0
        WHERE id = ${deliveryId} AND status = 'pending' AND lease_until = ${lease}`
    } else {
      const error = outcome.kind === 'failed' ? outcome.error : null
      await this.sql.begin(async (tx) => {
        const [row] = await tx<{ hook_id: string }[]>`
          UPDATE deliveries SET status = ${outcome.kind}, attempts = attempts + 1, updated_at = ${now},
            last_status = ${outcome.status}, last_error = ${error}, next_attempt_at = NULL, lease_until = 0,
            body = CASE WHEN ${outcome.kind} = 'delivered' THEN NULL ELSE body END
          WHERE id = ${deliveryId} AND status = 'pending' AND lease_until = ${lease} RETURNING hook_id`
        if (row === undefined) return // its hook was removed meanwhile
        if (outcome.kind === 'failed' && outcome.disable !== undefined) {
          // Disabled: the hook's other pending deliveries are parked with it (retry-failed re-sends them once enabled).
          await tx`UPDATE hooks SET state = 'disabled', disabled_at = ${now}, disabled_reason = ${outcome.disable} WHERE id = ${row.hook_id}`
          await tx`
            UPDATE deliveries SET status = 'failed', last_error = ${`hook disabled: ${outcome.disable}`}, next_attempt_at = NULL,
              updated_at = ${now}, lease_until = 0
            WHERE hook_id = ${row.hook_id} AND status = 'pending'`
        }
        if (outcome.kind === 'delivered') {
          // Keep the newest historyLimit delivered records of the hook.
          await tx`
            DELETE FROM deliveries WHERE hook_id = ${row.hook_id} AND status = 'delivered' AND seq <= (
              SELECT seq FROM deliveries WHERE hook_id = ${row.hook_id} AND status = 'delivered'
              ORDER BY seq DESC OFFSET ${this.historyLimit} LIMIT 1)`
        }
        await tx`SELECT pg_notify(${this.channel}, '')`
      })
    }
    this.wakeLocal()
  }

  async nextDue(): Promise<number | null> {
    const [row] = await this.sql<{ due: string | null }[]>`
      SELECT min(CASE WHEN head.lease_until > 0 THEN head.lease_until ELSE head.next_attempt_at END)::text AS due
      FROM hooks h CROSS JOIN LATERAL (
        SELECT lease_until, next_attempt_at FROM deliveries
        WHERE hook_id = h.id AND status = 'pending' ORDER BY seq LIMIT 1
      ) head`
    return row?.due == null ? null : Number(row.due)
  }

  async deliveries(hookId: string, status?: DeliveryRecord['status']): Promise<DeliveryRecord[]> {
    const rows = await this.sql<DeliveryRow[]>`
      SELECT id, hook_id, fingerprint, status, attempts, last_status, last_error, created_at, updated_at, next_attempt_at
      FROM deliveries WHERE hook_id = ${hookId} AND (${status === undefined} OR status = ${status ?? ''}) ORDER BY seq`
    return rows.map(deliveryRecord)
  }

  async retry(hookId: string, deliveryId: string, now: number): Promise<boolean> {
    const result = await this.sql`
      WITH moved AS (
        UPDATE deliveries SET status = 'pending', next_attempt_at = ${now}, updated_at = ${now}
        WHERE id = ${deliveryId} AND hook_id = ${hookId} AND status = 'failed'
          AND EXISTS (SELECT 1 FROM hooks WHERE id = ${hookId} AND state = 'active') RETURNING 1
      )
      SELECT pg_notify(${this.channel}, '') FROM moved`
    if (result.count === 0) return false
    this.wakeLocal()
    return true
  }

  async retryFailed(hookId: string, now: number): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`
      WITH moved AS (
        UPDATE deliveries SET status = 'pending', next_attempt_at = ${now}, updated_at = ${now}
        WHERE hook_id = ${hookId} AND status = 'failed'
          AND EXISTS (SELECT 1 FROM hooks WHERE id = ${hookId} AND state = 'active') RETURNING 1
      )
      SELECT count(*)::integer AS n, pg_notify(${this.channel}, '') FROM moved`
    const n = row?.n ?? 0
    if (n > 0) this.wakeLocal()
    return n
  }

  async pendingCount(): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::integer AS n FROM deliveries WHERE status = 'pending'`
    return row?.n ?? 0
  }

  /** Hears this process's changes at once and other processes' through LISTEN. */
  onWork(listener: () => void): () => void {
    this.listeners.add(listener)
    if (this.listening === null) this.listen()
    return () => this.listeners.delete(listener)
  }

  /**
   * LISTENs on the channel. Each time the subscription is made (at first, and again after the
   * driver reconnects) the listeners are woken too, since notifications sent meanwhile are lost;
   * a LISTEN that fails is tried again a second later while anyone listens.
   */
  private listen(): void {
    this.listening = this.sql.listen(this.channel, () => this.wakeLocal(), () => this.wakeLocal())
    this.listening.catch(() => {
      this.listening = null
      setTimeout(() => {
        if (this.listening === null && this.listeners.size > 0) this.listen()
      }, 1_000).unref()
    })
  }

  /** Calls the listeners (new work may be claimable). */
  wakeLocal(): void {
    for (const listener of this.listeners) listener()
  }
}
