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
 * - A disabled hook gets nothing queued, and disabling it parks its pending deliveries as failed.
 */
import type { HookEventType, HookState, ResourceType, Severity } from '../../schema/index.js'
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
  /** `active` hooks receive deliveries; a `disabled` one receives nothing until it is enabled again. */
  state: HookState
  /** When and why it was disabled (a 410 answer, a delivery that failed for its whole schedule); null while active. */
  disabledAt: number | null
  disabledReason: string | null
}

export type NewHook = Omit<HookRecord, 'id' | 'state' | 'disabledAt' | 'disabledReason'>

/** The members of an event that matching reads. */
export interface MatchableEvent {
  event_type: string
  host: string
  ip: string
  leak?: { severity?: string }
  /** Read for the conformance-run rule (docs/hooks.md): tags `l9kit-conform:RUN`. */
  tags?: readonly string[]
}

/**
 * The matching rule kept as an index (hooks/match-index.ts): which active hooks get one
 * delivery of an event, at a cost that does not grow with the resources that do not cover it.
 * A backend that queues ingested events itself (PostgreSQL's outbox) is given a factory of
 * them: matching belongs to hooks/, and store/ never imports it.
 */
export interface HookIndex {
  addResource(resource: WatchedResource): void
  removeResource(resource: WatchedResource): void
  /** Replaces the hooks (in registry order; disabled ones are left out). */
  setHooks(hooks: readonly HookRecord[]): void
  /** The hooks that get one delivery of `event`, in registry order. */
  select(event: MatchableEvent): HookRecord[]
}

export type HookIndexFactory = () => HookIndex

/** One page of a key's resources or hooks, oldest first; `next` is the cursor of the following page (null on the last). */
export interface Page<T> {
  items: T[]
  next: string | null
}

/** Which page: the items after `cursor` (null: from the first), at most `limit`. */
export interface PageRequest {
  cursor: string | null
  limit: number
}

/** A key already has as many resources (or hooks) as its plan allows. */
export class LimitReached extends Error {
  override name = 'LimitReached'
  constructor(
    readonly what: 'resources' | 'hooks',
    readonly limit: number,
  ) {
    super(`the key already has ${limit} ${what === 'resources' ? 'watched resources' : 'hooks'}, its plan's limit`)
  }
}

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
  /** Parked; with `disable`, the hook is disabled too (that reason) and its other pending deliveries parked. */
  | { kind: 'failed'; status: number | null; error: string; disable?: string }

export interface HookStore {
  /** Adds a resource; with `limit`, throws LimitReached when the owner already has that many. */
  addResource(owner: string, type: ResourceType, value: string, limit?: number | null): Awaitable<WatchedResource>
  /** The owner's resources (all owners' when `owner` is undefined), oldest first. */
  resources(owner?: string): Awaitable<WatchedResource[]>
  /** One page of the owner's resources, oldest first. A cursor the store did not give is treated as the start. */
  resourcePage(owner: string, page: PageRequest): Awaitable<Page<WatchedResource>>
  removeResource(owner: string, id: string): Awaitable<boolean>

  /** Adds an active hook; with `limit`, throws LimitReached when the owner already has that many. */
  addHook(hook: NewHook, limit?: number | null): Awaitable<HookRecord>
  /** The owner's hooks (all owners' when `owner` is undefined), oldest first. */
  hooks(owner?: string): Awaitable<HookRecord[]>
  /** One page of the owner's hooks, oldest first. */
  hookPage(owner: string, page: PageRequest): Awaitable<Page<HookRecord>>
  hook(owner: string, id: string): Awaitable<HookRecord | undefined>
  /** Removes the hook and its deliveries. */
  removeHook(owner: string, id: string): Awaitable<boolean>
  /**
   * Makes a disabled hook active again (new matching events reach it); its parked deliveries stay
   * failed until re-sent with retry or retryFailed. The hook as it is now, undefined when unknown.
   */
  enableHook(owner: string, id: string): Awaitable<HookRecord | undefined>
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
