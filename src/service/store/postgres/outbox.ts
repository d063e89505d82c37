/**
 * The transactional outbox: inside an ingest transaction, the new events' deliveries are
 * chosen by the matching rule of match.ts (the same function the memory backend uses, run
 * here over the registry as this transaction sees it) and inserted in ingest order. They
 * commit with the events or not at all, so a crash can lose neither one without the other.
 */
import type { TransactionSql } from 'postgres'
import { selectHooks, type MatchableEvent } from '../../hooks/match.js'
import type { HookEventType, Severity } from '../../../schema/index.js'
import type { HookRecord, QueuedEvent, WatchedResource } from '../hook-types.js'
import { canonicalFields } from '../canonical-fields.js'
import type { Prepared } from '../prepare.js'
import type { PostgresHookStore } from './hook-store.js'

/** Queues `added` (new events, in ingest order) for the hooks that match each; returns how many deliveries. */
export async function queueAdded(tx: TransactionSql, store: PostgresHookStore, added: readonly Prepared[], now: number): Promise<number> {
  const hookRows = await tx<{ id: string; owner: string; url: string; min_severity: string; event_types: string[]; secret: string }[]>`
    SELECT id, owner, url, min_severity, event_types, secret FROM hooks ORDER BY seq`
  if (hookRows.length === 0) return 0
  const hooks: HookRecord[] = hookRows.map((h) => ({
    id: h.id,
    owner: h.owner,
    url: h.url,
    minSeverity: h.min_severity as Severity,
    eventTypes: h.event_types as HookEventType[],
    secret: h.secret,
  }))
  const resources = await tx<WatchedResource[]>`SELECT id, owner, type, value FROM resources ORDER BY seq`
  const items: { hookId: string; event: QueuedEvent }[] = []
  for (const p of added) {
    const selected = selectHooks(resources, hooks, matchable(p))
    if (selected.length === 0) continue
    const event: QueuedEvent = { fingerprint: fingerprintOf(p), json: p.json }
    for (const hook of selected) items.push({ hookId: hook.id, event })
  }
  const queued = await store.insertDeliveries(tx, items, now)
  return queued
}

/** The members matching reads, from the parsed event or straight from canonical text. */
function matchable(p: Prepared): MatchableEvent {
  if (p.event) return p.event
  const f = canonicalFields(p.json)
  if (f === null) return JSON.parse(p.json) as MatchableEvent
  return { event_type: f.eventType, host: f.host, ip: f.ip, leak: { severity: p.severity } }
}

function fingerprintOf(p: Prepared): string {
  if (p.event) return p.event.event_fingerprint
  return canonicalFields(p.json)?.fingerprint ?? (JSON.parse(p.json) as { event_fingerprint: string }).event_fingerprint
}
