/**
 * The dispatcher: claims the heads of the hooks' queues (HookStore.claim: at most one delivery
 * per hook in flight, in order), POSTs them concurrently across hooks, and settles each attempt:
 * delivered on 2xx, otherwise retried after an exponential backoff with full jitter, or parked
 * as failed after the last attempt. It wakes when the store reports work and when the next
 * delivery is due. It runs on timers and promises only: ingest and lookups never wait for it.
 */
import { deliver, type AttemptResult, type DeliverOptions } from './deliver.js'
import type { Resolver } from './ssrf.js'
import type { ClaimedDelivery, HookStore, Outcome } from '../store/hook-types.js'

/** The `hook_delivery` settings of the configuration (docs/hooks.md). */
export interface DeliverySettings {
  /** Per attempt. */
  timeoutMs: number
  /** Attempts before a delivery is parked as failed. */
  attempts: number
  /** First backoff ceiling; the n-th retry waits a random time in [0, min(backoffMaxMs, backoffMs × 2^(n-1))). */
  backoffMs: number
  backoffMaxMs: number
  /** Pending deliveries per hook (used by the store). */
  queueLimit: number
}

export const DEFAULT_DELIVERY: Readonly<DeliverySettings> = Object.freeze({
  timeoutMs: 5_000,
  attempts: 8,
  backoffMs: 1_000,
  backoffMaxMs: 60_000,
  queueLimit: 10_000,
})

export interface DispatcherOptions {
  settings: DeliverySettings
  allowPrivate: boolean
  resolve?: Resolver
  /** Most deliveries in flight at once (across hooks). Default 64. */
  concurrency?: number
  /** Jitter source in [0, 1) (tests). */
  random?: () => number
  now?: () => number
  /** Replaces the HTTP attempt (tests). */
  send?: (claimed: ClaimedDelivery, options: DeliverOptions) => Promise<AttemptResult>
}

/** The wait before retry number `retry` (1 = the first): full jitter under an exponential ceiling. */
export function backoffDelay(retry: number, settings: Pick<DeliverySettings, 'backoffMs' | 'backoffMaxMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.backoffMaxMs, settings.backoffMs * 2 ** Math.min(retry - 1, 40))
  return Math.floor(random() * ceiling)
}

export class Dispatcher {
  private readonly store: HookStore
  private readonly options: DispatcherOptions
  private readonly concurrency: number
  private readonly now: () => number
  private readonly inFlight = new Map<string, Promise<void>>()
  private readonly abort = new AbortController()
  private stopWork: (() => void) | null = null
  private timer: NodeJS.Timeout | null = null
  private scheduled = false
  private pumping = false
  private again = false
  private closing = false

  constructor(store: HookStore, options: DispatcherOptions) {
    this.store = store
    this.options = options
    this.concurrency = options.concurrency ?? 64
    this.now = options.now ?? Date.now
  }

  /** Starts listening for work and sends what is already due. */
  start(): void {
    this.stopWork = this.store.onWork(() => this.wake())
    this.wake()
  }

  /** Deliveries being sent now. */
  get active(): number {
    return this.inFlight.size
  }

  /**
   * Stops claiming, gives the attempts in flight up to `graceMs` to finish (then aborts them),
   * and returns how many deliveries are still pending.
   */
  async close(graceMs = 3_000): Promise<number> {
    this.closing = true
    this.stopWork?.()
    if (this.timer) clearTimeout(this.timer)
    if (this.inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs)
      })
      await Promise.race([Promise.allSettled([...this.inFlight.values()]), grace])
      clearTimeout(timer)
      this.abort.abort()
      await Promise.allSettled([...this.inFlight.values()])
    }
    return this.store.pendingCount()
  }

  /** Runs a pump soon (once, however many wake-ups arrive in the same turn). */
  private wake(): void {
    if (this.closing || this.scheduled) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      void this.pump()
    })
  }

  private async pump(): Promise<void> {
    if (this.closing) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    try {
      do {
        this.again = false
        const room = this.concurrency - this.inFlight.size
        if (room <= 0) break
        const now = this.now()
        const claimed = await this.store.claim(now, this.leaseMs(), room)
        // Claimed while close() began: left alone, they stay pending (and their leases end).
        if (this.closing) break
        for (const c of claimed) this.startAttempt(c)
      } while (this.again && !this.closing)
      await this.schedule()
    } catch {
      // A store failure: try again a little later rather than stopping for good.
      this.setTimer(1_000)
    } finally {
      this.pumping = false
    }
  }

  /** A lease outlasts an attempt by a margin, so a delivery is never held by two attempts. */
  private leaseMs(): number {
    return this.options.settings.timeoutMs * 2 + 5_000
  }

  /** Sets the timer for the next due delivery. */
  private async schedule(): Promise<void> {
    if (this.closing) return
    const due = await this.store.nextDue()
    if (due === null) return this.clearTimer()
    const wait = due - this.now()
    // Due now but nothing claimable: the heads are in flight and their end wakes us.
    if (wait <= 0) return this.inFlight.size > 0 ? this.clearTimer() : this.setTimer(50)
    this.setTimer(wait)
  }

  private setTimer(ms: number): void {
    this.clearTimer()
    if (this.closing) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.wake()
    }, Math.min(ms, 2 ** 31 - 1))
    this.timer.unref()
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private startAttempt(claimed: ClaimedDelivery): void {
    const id = claimed.delivery.id
    const send = this.options.send ?? ((c: ClaimedDelivery, o: DeliverOptions) => deliver({ id: c.delivery.id, url: c.url, secret: c.secret, body: c.body }, o))
    const run = send(claimed, {
      timeoutMs: this.options.settings.timeoutMs,
      allowPrivate: this.options.allowPrivate,
      resolve: this.options.resolve,
      signal: this.abort.signal,
      now: this.now,
    })
      .then(async (result) => {
        // An attempt cut short by shutdown is not counted: it stays pending (and its lease ends).
        if (this.abort.signal.aborted && !result.ok) return
        await this.store.settle(id, this.outcome(claimed, result), this.now())
      })
      .catch(() => undefined)
      .finally(() => {
        this.inFlight.delete(id)
        this.wake()
      })
    this.inFlight.set(id, run)
  }

  private outcome(claimed: ClaimedDelivery, result: AttemptResult): Outcome {
    if (result.ok) return { kind: 'delivered', status: result.status ?? 200 }
    const made = claimed.delivery.attempts + 1
    const error = result.error ?? 'failed'
    if (made >= this.options.settings.attempts) return { kind: 'failed', status: result.status, error }
    const at = this.now() + backoffDelay(made, this.options.settings, this.options.random)
    return { kind: 'retry', at, status: result.status, error }
  }
}
