/**
 * What every hook backend offers (docs/hooks.md): the registry of watched resources and hooks,
 * and the delivery queue. The memory backend keeps them in maps; the PostgreSQL backend in
 * tables, with the queue as a transactional outbox. The dispatcher (dispatcher.ts) and the
 * HTTP routes use only this interface, and the shared hook suite runs against every backend.
 *
 * Queue rules every backend keeps:
 * - A hook's deliveries are ordered by the order they were queued (ingest order).
 * - Only the oldest pending delivery of a hook (its head) can be claimed, and only when it is
 *   due and not held by a dispatcher: at most one delivery per hook is in flight, and a failing
 *   one holds the later ones back until it is delivered or parked as failed.
 * - A claim holds a delivery for a lease; a dispatcher that dies loses it when the lease ends.
 * - A hook holds at most `queueLimit` pending deliveries; one queued beyond that is stored as
 *   failed (`last_error` "queue full"), never dropped.
 */
import type { HookEventType, ResourceType, Severity } from '../../schema/index.js'
import type { Awaitable } from './types.js'
import type { DeclaredHooks } from './declared-hooks.js'

/** A resource a key's owner watches. `owner` is the key's name (config `keys[].name`). */
export interface WatchedResource {
  id: string
  owner: string
  type: ResourceType
  /** Canonical: lower-case domain, canonical IP, or a CIDR with its network address (`10.0.0.0/8`). */
  value: string
}

export interface HookRecord {
  id: string
  owner: string
  url: string
  minSeverity: Severity
  eventTypes: HookEventType[]
  /** `whsec_` + base64 of the key bytes. */
  secret: string
}

export type NewHook = Omit<HookRecord, 'id'>

/** Times are milliseconds since the Unix epoch. */
export interface DeliveryRecord {
  /** `msg_…`: the `webhook-id` of every attempt. */
  id: string
  hookId: string
  fingerprint: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  lastStatus: number | null
  lastError: string | null
  createdAt: number
  updatedAt: number
  /** When a pending delivery is due; null for delivered and failed ones. */
  nextAttemptAt: number | null
}

/** One event to queue for some hooks: its canonical JSON is the body of every attempt. */
export interface QueuedEvent {
  fingerprint: string
  /** The event's stored canonical JSON, sent unchanged. */
  json: string
}

/** A delivery handed to a dispatcher, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: DeliveryRecord
  url: string
  secret: string
  body: string
}

/** What one attempt came to. */
export type Outcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retry'; at: number; status: number | null; error: string }
  | { kind: 'failed'; status: number | null; error: string }

export interface HookStore {
  addResource(owner: string, type: ResourceType, value: string): Awaitable<WatchedResource>
  /** The owner's resources (all owners' when `owner` is undefined), oldest first. */
  resources(owner?: string): Awaitable<WatchedResource[]>
  removeResource(owner: string, id: string): Awaitable<boolean>

  addHook(hook: NewHook): Awaitable<HookRecord>
  /** The owner's hooks (all owners' when `owner` is undefined), oldest first. */
  hooks(owner?: string): Awaitable<HookRecord[]>
  hook(owner: string, id: string): Awaitable<HookRecord | undefined>
  /** Removes the hook and its deliveries. */
  removeHook(owner: string, id: string): Awaitable<boolean>
  /**
   * Adds the config-declared resources and hooks that are not there yet (declared-hooks.ts), as one
   * step: processes starting together on one database add each of them once.
   */
  declare(declared: DeclaredHooks): Awaitable<void>

  /**
   * Queues one delivery of `event` to each hook in `hookIds`, behind what those hooks already
   * have queued, due at `now`. (New ingested events are queued by the backend itself, in
   * ingest order; this is also how a test event is sent.)
   */
  enqueue(hookIds: readonly string[], event: QueuedEvent, now: number): Awaitable<void>
  /** Up to `limit` claimable heads (see above), each held until `now + leaseMs`. */
  claim(now: number, leaseMs: number, limit: number): Awaitable<ClaimedDelivery[]>
  /** Records an attempt of a claimed delivery (attempts + 1) and releases it. */
  settle(deliveryId: string, outcome: Outcome, now: number): Awaitable<void>
  /** When the earliest pending delivery is due or its lease ends (ms), or null when none is pending. */
  nextDue(): Awaitable<number | null>
  /** A hook's deliveries, oldest first, optionally of one status. */
  deliveries(hookId: string, status?: DeliveryRecord['status']): Awaitable<DeliveryRecord[]>
  /** Puts one failed delivery back in the queue, due at `now`; false when there is no such failed delivery. */
  retry(hookId: string, deliveryId: string, now: number): Awaitable<boolean>
  /** Puts every failed delivery of the hook back in the queue; returns how many. */
  retryFailed(hookId: string, now: number): Awaitable<number>
  /** Pending deliveries of every hook (for the report at shutdown). */
  pendingCount(): Awaitable<number>
  /** Calls `listener` when new work may be claimable (queued, retried, released); returns the function that stops it. */
  onWork(listener: () => void): () => void
}
