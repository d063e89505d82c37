/**
 * The transactional outbox: inside an ingest transaction, the new events' deliveries are
 * chosen by the matching index (hooks/match-index.ts, the one the memory backend uses, built
 * here from the registry as a transaction read it and kept while the registry's version stays)
 * and inserted in ingest order. They commit with the events or not at all, so a crash can lose
 * neither one without the other.
 */
import type { TransactionSql } from 'postgres'
import { newId } from '../hook-ids.js'
import type { HookIndexFactory, MatchableEvent, QueuedEvent } from '../hook-types.js'
import { canonicalFields } from '../canonical-fields.js'
import type { Prepared } from '../prepare.js'
import type { PostgresHookStore } from './hook-store.js'
import { registryIndex } from './hook-registry.js'

/** Queues `added` (new events, in ingest order) for the hooks that match each; returns how many deliveries. */
export async function queueAdded(tx: TransactionSql, store: PostgresHookStore, createIndex: HookIndexFactory, added: readonly Prepared[], now: number): Promise<number> {
  const cached = (store.cachedIndex = await registryIndex(tx, store.cachedIndex, createIndex))
  if (cached.hooks === 0) return 0
  const items: { hookId: string; event: QueuedEvent }[] = []
  for (const p of added) {
    const selected = cached.index.select(matchable(p))
    if (selected.length === 0) continue
    const event: QueuedEvent = { fingerprint: fingerprintOf(p), json: p.json }
    for (const hook of selected) items.push({ hookId: hook.id, event })
  }
  return insertDeliveries(tx, store, items, now)
}

/** Text that may hold a conformance run's tag: only such events need their tags read. */
const RUN_TAG = '"l9kit-conform:'

/** The members matching reads, from the parsed event or straight from canonical text. */
function matchable(p: Prepared): MatchableEvent {
  if (p.event) return p.event
  const f = canonicalFields(p.json)
  if (f === null || p.json.includes(RUN_TAG)) return JSON.parse(p.json) as MatchableEvent
  return { event_type: f.eventType, host: f.host, ip: f.ip, leak: { severity: p.severity } }
}

function fingerprintOf(p: Prepared): string {
  if (p.event) return p.event.event_fingerprint
  return canonicalFields(p.json)?.fingerprint ?? (JSON.parse(p.json) as { event_fingerprint: string }).event_fingerprint
}

/**
 * Inserts deliveries in the given order, behind what their hooks have queued; one beyond a
 * hook's queue limit is stored as failed ("queue full"). Takes the schema's outbox lock until
 * commit, so queue order (seq) is commit order even when processes queue at the same time.
 */
export async function insertDeliveries(
  tx: TransactionSql,
  store: Pick<PostgresHookStore, 'schema' | 'queueLimit' | 'channel'>,
  items: readonly { hookId: string; event: QueuedEvent }[],
  now: number,
): Promise<number> {
  if (items.length === 0) return 0
  await tx`SELECT pg_advisory_xact_lock(hashtext(${`l9kit outbox ${store.schema}`}))`
  const hookIds = [...new Set(items.map((i) => i.hookId))]
  const counts = await tx<{ hook_id: string; n: number }[]>`
    SELECT h.id AS hook_id, (SELECT count(*)::integer FROM deliveries d WHERE d.hook_id = h.id AND d.status = 'pending') AS n
    FROM hooks h WHERE h.id = ANY(${tx.array(hookIds)}) AND h.state = 'active'`
  const pending = new Map(counts.map((c) => [c.hook_id, c.n]))
  const ids: string[] = []
  const hooks: string[] = []
  const fingerprints: string[] = []
  const bodies: string[] = []
  const statuses: string[] = []
  for (const item of items) {
    const n = pending.get(item.hookId)
    if (n === undefined) continue // the hook is gone or disabled
    const full = n >= store.queueLimit
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
  if (statuses.includes('pending')) await tx`SELECT pg_notify(${store.channel}, '')`
  return ids.length
}
