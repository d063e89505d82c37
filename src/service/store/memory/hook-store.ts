/**
 * The in-memory HookStore: maps for the registry, and per hook a queue ordered by the sequence
 * number each delivery got when it was queued (ingest order). Everything is lost when the
 * process ends (docs/hooks.md says so). Answers are synchronous, so the ingest listener
 * (queue-ingested.ts) queues an event before the next one is stored.
 */
import { type DeclaredHooks, missingDeclared } from '../declared-hooks.js'
import type { ResourceType } from '../../../schema/index.js'
import { newId } from '../hook-ids.js'
import { type MatchableEvent, selectHooks } from '../../hooks/match.js'
import type {
  ClaimedDelivery,
  DeliveryRecord,
  HookRecord,
  HookStore,
  NewHook,
  Outcome,
  QueuedEvent,
  WatchedResource,
} from '../hook-types.js'

export const DEFAULT_QUEUE_LIMIT = 10_000
/** Delivered records kept per hook for GET …/deliveries; older delivered ones are forgotten. */
export const DEFAULT_HISTORY_LIMIT = 1_000

export interface MemoryHookStoreOptions {
  /** Pending deliveries per hook before new ones are parked as failed ("queue full"). */
  queueLimit?: number
  /** Delivered records kept per hook. */
  historyLimit?: number
}

interface Entry {
  record: DeliveryRecord
  /** Position in the hook's order: the head is the pending entry with the smallest. */
  seq: number
  /** The body; dropped once delivered. */
  body: string | null
  /** While a dispatcher holds it: when the lease ends (ms); 0 when not held. */
  leaseUntil: number
}

interface Queue {
  /** Every kept delivery, oldest first. */
  all: Entry[]
  /** Pending deliveries sorted by seq: [0] is the head. */
  pending: Entry[]
  /** The entry a dispatcher holds, if any: a retried entry may move ahead of it, but not be sent beside it. */
  held: Entry | null
  delivered: number
}

export class MemoryHookStore implements HookStore {
  private readonly queueLimit: number
  private readonly historyLimit: number
  private readonly resourceMap = new Map<string, WatchedResource>()
  private readonly hookMap = new Map<string, HookRecord>()
  private readonly queues = new Map<string, Queue>()
  private readonly entries = new Map<string, { hookId: string; entry: Entry }>()
  private readonly listeners = new Set<() => void>()
  private readonly countListeners = new Set<() => void>()
  private resourceList: WatchedResource[] | null = null
  private hookList: HookRecord[] | null = null
  private seq = 0

  constructor(options: MemoryHookStoreOptions = {}) {
    this.queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT
    this.historyLimit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT
  }

  /** True when at least one hook exists (the ingest listener's only check when none does). */
  get hasHooks(): boolean {
    return this.hookMap.size > 0
  }

  addResource(owner: string, type: ResourceType, value: string): WatchedResource {
    const resource: WatchedResource = { id: newId('res'), owner, type, value }
    this.resourceMap.set(resource.id, resource)
    this.resourceList = null
    return { ...resource }
  }

  resources(owner?: string): WatchedResource[] {
    const out: WatchedResource[] = []
    for (const r of this.resourceMap.values()) if (owner === undefined || r.owner === owner) out.push({ ...r })
    return out
  }

  removeResource(owner: string, id: string): boolean {
    const r = this.resourceMap.get(id)
    if (r === undefined || r.owner !== owner) return false
    this.resourceMap.delete(id)
    this.resourceList = null
    return true
  }

  addHook(hook: NewHook): HookRecord {
    const record: HookRecord = { ...hook, eventTypes: [...hook.eventTypes], id: newId('hook') }
    this.hookMap.set(record.id, record)
    this.queues.set(record.id, { all: [], pending: [], held: null, delivered: 0 })
    this.hookList = null
    for (const listener of this.countListeners) listener()
    return copyHook(record)
  }

  hooks(owner?: string): HookRecord[] {
    const out: HookRecord[] = []
    for (const h of this.hookMap.values()) if (owner === undefined || h.owner === owner) out.push(copyHook(h))
    return out
  }

  hook(owner: string, id: string): HookRecord | undefined {
    const h = this.hookMap.get(id)
    return h === undefined || h.owner !== owner ? undefined : copyHook(h)
  }

  removeHook(owner: string, id: string): boolean {
    const h = this.hookMap.get(id)
    if (h === undefined || h.owner !== owner) return false
    this.hookMap.delete(id)
    this.hookList = null
    const queue = this.queues.get(id)
    this.queues.delete(id)
    for (const entry of queue?.all ?? []) this.entries.delete(entry.record.id)
    for (const listener of this.countListeners) listener()
    return true
  }
  declare(declared: DeclaredHooks): void {
    const missing = missingDeclared(declared, this.resources(), this.hooks())
    for (const r of missing.resources) this.addResource(r.owner, r.type, r.value)
    for (const h of missing.hooks) this.addHook(h)
  }


  /**
   * Queues a new ingested event for every hook the matching rule selects (match.ts); returns
   * how many deliveries were queued. Called by the ingest listener, in ingest order.
   */
  queueMatching(event: MatchableEvent, queued: QueuedEvent, now: number): number {
    if (this.hookMap.size === 0) return 0
    this.resourceList ??= [...this.resourceMap.values()]
    this.hookList ??= [...this.hookMap.values()]
    const selected = selectHooks(this.resourceList, this.hookList, event)
    if (selected.length === 0) return 0
    this.enqueue(
      selected.map((h) => h.id),
      queued,
      now,
    )
    return selected.length
  }

  enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): void {
    let queuedAny = false
    for (const hookId of hookIds) {
      const queue = this.queues.get(hookId)
      if (queue === undefined) continue
      const full = queue.pending.length >= this.queueLimit
      const record: DeliveryRecord = {
        id: newId('msg'),
        hookId,
        fingerprint: event.fingerprint,
        status: full ? 'failed' : 'pending',
        attempts: 0,
        lastStatus: null,
        lastError: full ? 'queue full' : null,
        createdAt: now,
        updatedAt: now,
        nextAttemptAt: full ? null : now,
      }
      const entry: Entry = { record, seq: ++this.seq, body: event.json, leaseUntil: 0 }
      queue.all.push(entry)
      this.entries.set(record.id, { hookId, entry })
      if (!full) {
        queue.pending.push(entry)
        queuedAny = true
      }
    }
    if (queuedAny) this.notify()
  }

  claim(now: number, leaseMs: number, limit: number): ClaimedDelivery[] {
    const claimed: ClaimedDelivery[] = []
    if (limit <= 0) return claimed
    for (const [hookId, queue] of this.queues) {
      const head = queue.pending[0]
      if (head === undefined || (queue.held !== null && queue.held.leaseUntil > now) || (head.record.nextAttemptAt ?? 0) > now) continue
      const hook = this.hookMap.get(hookId)!
      head.leaseUntil = now + leaseMs
      queue.held = head
      claimed.push({ delivery: { ...head.record }, url: hook.url, secret: hook.secret, body: head.body ?? '' })
      if (claimed.length >= limit) break
    }
    return claimed
  }

  settle(deliveryId: string, outcome: Outcome, now: number): void {
    const found = this.entries.get(deliveryId)
    if (found === undefined) return // its hook was removed meanwhile
    const { entry, hookId } = found
    const queue = this.queues.get(hookId)!
    const record = entry.record
    entry.leaseUntil = 0
    if (queue.held === entry) queue.held = null
    record.attempts++
    record.updatedAt = now
    record.lastStatus = outcome.status
    if (outcome.kind === 'retry') {
      record.lastError = outcome.error
      record.nextAttemptAt = outcome.at
    } else {
      record.status = outcome.kind
      record.lastError = outcome.kind === 'failed' ? outcome.error : null
      record.nextAttemptAt = null
      removeEntry(queue.pending, entry)
      if (outcome.kind === 'delivered') {
        entry.body = null
        queue.delivered++
        if (queue.delivered > this.historyLimit) this.forgetOldestDelivered(queue)
      }
    }
    this.notify()
  }

  nextDue(): number | null {
    let next: number | null = null
    for (const queue of this.queues.values()) {
      const head = queue.pending[0]
      if (head === undefined) continue
      const due = queue.held !== null ? queue.held.leaseUntil : (head.record.nextAttemptAt ?? 0)
      if (next === null || due < next) next = due
    }
    return next
  }

  deliveries(hookId: string, status?: DeliveryRecord['status']): DeliveryRecord[] {
    const queue = this.queues.get(hookId)
    if (queue === undefined) return []
    const out: DeliveryRecord[] = []
    for (const entry of queue.all) if (status === undefined || entry.record.status === status) out.push({ ...entry.record })
    return out
  }

  retry(hookId: string, deliveryId: string, now: number): boolean {
    const found = this.entries.get(deliveryId)
    if (found === undefined || found.hookId !== hookId || found.entry.record.status !== 'failed') return false
    this.requeue(this.queues.get(hookId)!, found.entry, now)
    this.notify()
    return true
  }

  retryFailed(hookId: string, now: number): number {
    const queue = this.queues.get(hookId)
    if (queue === undefined) return 0
    let count = 0
    for (const entry of queue.all) {
      if (entry.record.status !== 'failed') continue
      this.requeue(queue, entry, now)
      count++
    }
    if (count > 0) this.notify()
    return count
  }

  pendingCount(): number {
    let n = 0
    for (const queue of this.queues.values()) n += queue.pending.length
    return n
  }

  onWork(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Calls `listener` after a hook is added or removed (queue-ingested.ts attaches to ingest only while hooks exist). */
  onHookCount(listener: () => void): () => void {
    this.countListeners.add(listener)
    return () => this.countListeners.delete(listener)
  }

  /** A failed delivery back in the queue at its original place in the hook's order. */
  private requeue(queue: Queue, entry: Entry, now: number): void {
    const record = entry.record
    record.status = 'pending'
    record.nextAttemptAt = now
    record.updatedAt = now
    let i = queue.pending.length
    while (i > 0 && queue.pending[i - 1]!.seq > entry.seq) i--
    queue.pending.splice(i, 0, entry)
  }

  private forgetOldestDelivered(queue: Queue): void {
    const i = queue.all.findIndex((e) => e.record.status === 'delivered')
    if (i === -1) return
    const [entry] = queue.all.splice(i, 1)
    this.entries.delete(entry!.record.id)
    queue.delivered--
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}

function removeEntry(list: Entry[], entry: Entry): void {
  const i = list.indexOf(entry)
  if (i !== -1) list.splice(i, 1)
}

function copyHook(h: HookRecord): HookRecord {
  return { id: h.id, owner: h.owner, url: h.url, minSeverity: h.minSeverity, eventTypes: [...h.eventTypes], secret: h.secret }
}
