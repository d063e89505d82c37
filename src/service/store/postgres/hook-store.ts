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
import type { Sql, TransactionSql } from 'postgres'
import type { HookEventType, ResourceType, Severity } from '../../../schema/index.js'
import { type DeclaredHooks, missingDeclared } from '../declared-hooks.js'
import { newId } from '../hook-ids.js'
import type { ClaimedDelivery, DeliveryRecord, HookRecord, HookStore, NewHook, Outcome, QueuedEvent, WatchedResource } from '../hook-types.js'
import { queueAdded } from './outbox.js'
import type { PostgresStore } from './store.js'

export interface PostgresHookStoreOptions {
  /** Pending deliveries per hook before new ones are parked as failed ("queue full"). Default 10 000. */
  queueLimit?: number
  /** Delivered records kept per hook. Default 1 000. */
  historyLimit?: number
}

interface DeliveryRow {
  id: string
  hook_id: string
  fingerprint: string
  status: DeliveryRecord['status']
  attempts: number
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  next_attempt_at: string | null
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

  constructor(
    readonly sql: Sql,
    readonly schema: string,
    options: PostgresHookStoreOptions = {},
  ) {
    this.queueLimit = options.queueLimit ?? 10_000
    this.historyLimit = options.historyLimit ?? 1_000
    this.channel = `l9kit_work_${schema}`.slice(0, 63)
  }

  /** A hook store over `store`'s database whose ingests queue their new events' deliveries. */
  static async attach(store: PostgresStore, options: PostgresHookStoreOptions = {}): Promise<PostgresHookStore> {
    await store.ready()
    const hooks = new PostgresHookStore(store.sql, store.schema, options)
    hooks.detach = store.addIngestHook((tx, added) => queueAdded(tx, hooks, added, Date.now()))
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

  async addResource(owner: string, type: ResourceType, value: string): Promise<WatchedResource> {
    const resource: WatchedResource = { id: newId('res'), owner, type, value }
    await this.sql`INSERT INTO resources (id, owner, type, value) VALUES (${resource.id}, ${owner}, ${type}, ${value})`
    return resource
  }

  async resources(owner?: string): Promise<WatchedResource[]> {
    const rows = await this.sql<WatchedResource[]>`
      SELECT id, owner, type, value FROM resources WHERE ${owner === undefined} OR owner = ${owner ?? ''} ORDER BY seq`
    return rows.map((r) => ({ id: r.id, owner: r.owner, type: r.type, value: r.value }))
  }

  async removeResource(owner: string, id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM resources WHERE id = ${id} AND owner = ${owner}`
    return result.count > 0
  }

  async addHook(hook: NewHook): Promise<HookRecord> {
    const record: HookRecord = { ...hook, eventTypes: [...hook.eventTypes], id: newId('hook') }
    await this.sql`
      INSERT INTO hooks (id, owner, url, min_severity, event_types, secret)
      VALUES (${record.id}, ${hook.owner}, ${hook.url}, ${hook.minSeverity}, ${this.sql.array(record.eventTypes)}, ${hook.secret})`
    return record
  }

  async declare(declared: DeclaredHooks): Promise<void> {
    if (declared.resources.length === 0 && declared.hooks.length === 0) return
    await this.sql.begin(async (tx) => {
      // One process at a time reads what is there and adds what is missing.
      await tx`SELECT pg_advisory_xact_lock(hashtext(${`l9kit-declare-${this.schema}`}))`
      const resources = await tx<WatchedResource[]>`SELECT id, owner, type, value FROM resources`
      const hooks = await tx<HookRow[]>`SELECT id, owner, url, min_severity, event_types, secret FROM hooks`
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

  async hooks(owner?: string): Promise<HookRecord[]> {
    const rows = await this.sql<HookRow[]>`
      SELECT id, owner, url, min_severity, event_types, secret FROM hooks
      WHERE ${owner === undefined} OR owner = ${owner ?? ''} ORDER BY seq`
    return rows.map(hookRecord)
  }

  async hook(owner: string, id: string): Promise<HookRecord | undefined> {
    const [row] = await this.sql<HookRow[]>`
      SELECT id, owner, url, min_severity, event_types, secret FROM hooks WHERE id = ${id} AND owner = ${owner}`
    return row === undefined ? undefined : hookRecord(row)
  }

  async removeHook(owner: string, id: string): Promise<boolean> {
    const result = await this.sql`DELETE FROM hooks WHERE id = ${id} AND owner = ${owner}`
    return result.count > 0
  }

  async enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): Promise<void> {
    if (hookIds.length === 0) return
    await this.sql.begin((tx) => this.insertDeliveries(tx, hookIds.map((hookId) => ({ hookId, event })), now))
    this.wakeLocal()
  }

  /**
   * Inserts deliveries in the given order, behind what their hooks have queued; one beyond a
   * hook's queue limit is stored as failed ("queue full"). Takes the schema's outbox lock until
   * commit, so queue order (seq) is commit order even when processes queue at the same time.
   */
  async insertDeliveries(tx: TransactionSql, items: readonly { hookId: string; event: QueuedEvent }[], now: number): Promise<number> {
    if (items.length === 0) return 0
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`l9kit outbox ${this.schema}`}))`
    const hookIds = [...new Set(items.map((i) => i.hookId))]
    const counts = await tx<{ hook_id: string; n: number }[]>`
      SELECT h.id AS hook_id, (SELECT count(*)::integer FROM deliveries d WHERE d.hook_id = h.id AND d.status = 'pending') AS n
      FROM hooks h WHERE h.id = ANY(${tx.array(hookIds)})`
    const pending = new Map(counts.map((c) => [c.hook_id, c.n]))
    const ids: string[] = []
    const hooks: string[] = []
    const fingerprints: string[] = []
    const bodies: string[] = []
    const statuses: string[] = []
    for (const item of items) {
      const n = pending.get(item.hookId)
      if (n === undefined) continue // the hook is gone
      const full = n >= this.queueLimit
      if (!full) pending.set(item.hookId, n + 1)
      ids.push(newId('msg'))
      hooks.push(item.hookId)
      fingerprints.push(item.event.fingerprint)
      bodies.push(item.event.json)
      statuses.push(full ? 'failed' : 'pending')
    }
    if (ids.length === 0) return 0
    await tx`
      INSERT INTO deliveries (id, hook_id, fingerprint, body, status, last_error, created_at, updated_at, next_attempt_at)
      SELECT id, hook_id, fingerprint, body, status,
             CASE WHEN status = 'failed' THEN 'queue full' END, ${now}, ${now}, CASE WHEN status = 'pending' THEN ${now}::bigint END
      FROM unnest(${tx.array(ids)}::text[], ${tx.array(hooks)}::text[], ${tx.array(fingerprints)}::text[], ${tx.array(bodies)}::text[], ${tx.array(statuses)}::text[])
           WITH ORDINALITY AS q (id, hook_id, fingerprint, body, status, n)
      ORDER BY n`
    if (statuses.includes('pending')) await tx`SELECT pg_notify(${this.channel}, '')`
    return ids.length
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
        WHERE id = ${deliveryId} AND hook_id = ${hookId} AND status = 'failed' RETURNING 1
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
        WHERE hook_id = ${hookId} AND status = 'failed' RETURNING 1
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

interface HookRow {
  id: string
  owner: string
  url: string
  min_severity: string
  event_types: string[]
  secret: string
}

function hookRecord(r: HookRow): HookRecord {
  return { id: r.id, owner: r.owner, url: r.url, minSeverity: r.min_severity as Severity, eventTypes: [...r.event_types] as HookEventType[], secret: r.secret }
}

function deliveryRecord(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    hookId: r.hook_id,
    fingerprint: r.fingerprint,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
  }
}
