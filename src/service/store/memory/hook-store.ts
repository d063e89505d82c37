/**
 * The in-memory HookStore: maps for the registry, and per hook a queue ordered by the sequence
 * number each delivery got when it was queued (ingest order). Everything is lost when the
 * process ends (docs/hooks.md says so). Answers are synchronous, so the ingest listener
 * (hooks/queue-ingested.ts) queues an event before the next one is stored.
 */
import { type DeclaredHooks, missingDeclared } from '../declared-hooks.js'
import type { ResourceType } from '../../../schema/index.js'
import { newId } from '../hook-ids.js'
import { type Entry, forgetOldestDelivered, type Queue, removeEntry, requeue } from './hook-queue.js'
import { HookRegistry, type RegistryChange } from './hook-registry.js'
import type {
  ClaimedDelivery,
  DeliveryRecord,
  HookRecord,
  HookStore,
  NewHook,
  Outcome,
  Page,
  PageRequest,
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

export type { RegistryChange } from './hook-registry.js'

export class MemoryHookStore implements HookStore {
  private readonly queueLimit: number
  private readonly historyLimit: number
  private readonly registryData = new HookRegistry()
  private readonly queues = new Map<string, Queue>()
  private readonly entries = new Map<string, { hookId: string; entry: Entry }>()
  private readonly listeners = new Set<() => void>()
  private seq = 0

  constructor(options: MemoryHookStoreOptions = {}) {
    this.queueLimit = options.queueLimit ?? DEFAULT_QUEUE_LIMIT
    this.historyLimit = options.historyLimit ?? DEFAULT_HISTORY_LIMIT
  }

  /** True when at least one hook exists (the ingest listener's only check when none does). */
  get hasHooks(): boolean {
    return this.registryData.hookCount > 0
  }

  addResource(owner: string, type: ResourceType, value: string, limit?: number | null): WatchedResource {
    return { ...this.registryData.addResource(owner, type, value, limit) }
  }

  resources(owner?: string): WatchedResource[] {
    return this.registryData.resources(owner).map((r) => ({ ...r }))
  }

  resourcePage(owner: string, page: PageRequest): Page<WatchedResource> {
    const found = this.registryData.resourcePage(owner, page)
    return { items: found.items.map((r) => ({ ...r })), next: found.next }
  }

  removeResource(owner: string, id: string): boolean {
    return this.registryData.removeResource(owner, id)
  }

  addHook(hook: NewHook, limit?: number | null): HookRecord {
    const record = this.registryData.addHook(hook, limit)
    this.queues.set(record.id, { all: [], pending: [], held: null, delivered: 0 })
    return copyHook(record)
  }

  hooks(owner?: string): HookRecord[] {
    return this.registryData.hooks(owner).map(copyHook)
  }

  hookPage(owner: string, page: PageRequest): Page<HookRecord> {
    const found = this.registryData.hookPage(owner, page)
    return { items: found.items.map(copyHook), next: found.next }
  }

  hook(owner: string, id: string): HookRecord | undefined {
    const h = this.registryData.hookById(id)
    return h === undefined || h.owner !== owner ? undefined : copyHook(h)
  }

  removeHook(owner: string, id: string): boolean {
    if (!this.registryData.removeHook(owner, id)) return false
    const queue = this.queues.get(id)
    this.queues.delete(id)
    for (const entry of queue?.all ?? []) this.entries.delete(entry.record.id)
    return true
  }

  enableHook(owner: string, id: string): HookRecord | undefined {
    const h = this.registryData.hookById(id)
    if (h === undefined || h.owner !== owner) return undefined
    if (h.state !== 'active') this.registryData.setState(h, 'active', 0, null)
    return copyHook(h)
  }

  declare(declared: DeclaredHooks): void {
    const missing = missingDeclared(declared, this.resources(), this.hooks())
    for (const r of missing.resources) this.addResource(r.owner, r.type, r.value)
    for (const h of missing.hooks) this.addHook(h)
  }

  /**
   * Every resource and hook, as the registry holds them (not copies: they must not be modified),
   * in the order they were added: what the matching index is built from.
   */
  registry(): { resources: readonly WatchedResource[]; hooks: readonly HookRecord[] } {
    return { resources: this.registryData.resources(), hooks: this.registryData.hooks() }
  }

  /** Calls `listener` after each change of the registry (hooks/queue-ingested.ts keeps its index so). */
  onRegistryChange(listener: (change: RegistryChange) => void): () => void {
    return this.registryData.onChange(listener)
  }

  enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): void {
    let queuedAny = false
    for (const hookId of hookIds) {
      const queue = this.queues.get(hookId)
      if (queue === undefined || this.registryData.hookById(hookId)?.state !== 'active') continue
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
      const hook = this.registryData.hookById(hookId)!
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
        if (queue.delivered > this.historyLimit) {
          const forgotten = forgetOldestDelivered(queue)
          if (forgotten !== undefined) this.entries.delete(forgotten)
        }
      } else if (outcome.disable !== undefined) this.disable(hookId, queue, outcome.disable, now)
    }
    this.notify()
  }

  /** Disables the hook and parks its pending deliveries (retry-failed re-sends them once it is enabled). */
  private disable(hookId: string, queue: Queue, reason: string, now: number): void {
    this.registryData.setState(this.registryData.hookById(hookId)!, 'disabled', now, reason)
    for (const entry of queue.pending) {
      const record = entry.record
      record.status = 'failed'
      record.lastError = `hook disabled: ${reason}`
      record.nextAttemptAt = null
      record.updatedAt = now
    }
    queue.pending.length = 0
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
    if (found === undefined || found.hookId !== hookId || found.entry.record.status !== 'failed' || !this.active(hookId)) return false
    requeue(this.queues.get(hookId)!, found.entry, now)
    this.notify()
    return true
  }

  retryFailed(hookId: string, now: number): number {
    const queue = this.queues.get(hookId)
    if (queue === undefined || !this.active(hookId)) return 0
    let count = 0
    for (const entry of queue.all) {
      if (entry.record.status !== 'failed') continue
      requeue(queue, entry, now)
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

  /** Whether the hook exists and is active (only then is anything queued or re-sent for it). */
  private active(hookId: string): boolean {
    return this.registryData.hookById(hookId)?.state === 'active'
  }

  private notify(): void {
    for (const listener of this.listeners) listener()
  }
}

function copyHook(h: HookRecord): HookRecord {
  return { ...h, eventTypes: [...h.eventTypes] }
}
