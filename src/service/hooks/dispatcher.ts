/**
 * The dispatcher: claims the heads of the hooks' queues (HookStore.claim: at most one delivery
 * per hook in flight, in order), POSTs them concurrently across hooks, and settles each attempt
 * the way Standard Webhooks and Svix do: delivered on 2xx; `410 Gone` disables the hook;
 * otherwise retried on the retry schedule (a `Retry-After` of a 429 or 503 may push the next
 * attempt later, within a bound), and after the schedule's last attempt the delivery is parked
 * and the hook disabled, since its receiver failed for the whole window. It wakes when the
 * store reports work and when the next delivery is due. It runs on timers and promises only:
 * ingest and lookups never wait for it.
 */
import { deliver, type AttemptResult, type DeliverOptions } from './deliver.js'
import type { Resolver } from './ssrf.js'
import type { ClaimedDelivery, HookStore, Outcome } from '../store/hook-types.js'

/** The `hook_delivery` settings of the configuration (docs/hooks.md). */
export interface DeliverySettings {
  /** Per attempt. */
  timeoutMs: number
  /**
   * The waits after each failed attempt, in order: attempt n + 1 comes `retryScheduleMs[n − 1]`
   * (plus up to 10 % of jitter) after attempt n failed. Attempts in all: its length + 1.
   */
  retryScheduleMs: number[]
  /** Longest wait a `Retry-After` header can ask for. */
  retryAfterMaxMs: number
  /** Pending deliveries per hook (used by the store). */
  queueLimit: number
}

/**
 * Svix's documented schedule: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * after each failure: 8 attempts over about 27 h 35 min.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = Object.freeze([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000])

export const DEFAULT_DELIVERY: Readonly<DeliverySettings> = Object.freeze({
  timeoutMs: 15_000,
  retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS as number[],
  retryAfterMaxMs: 3_600_000,
  queueLimit: 10_000,
})

/** The timer functions the dispatcher waits with (a test gives a simulated clock's). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

export interface DispatcherOptions {
  settings: DeliverySettings
  allowPrivate: boolean
  resolve?: Resolver
  /** Most deliveries in flight at once (across hooks). Default 64. */
  concurrency?: number
  /** Jitter source in [0, 1) (tests). */
  random?: () => number
  /** The clock (ms since the Unix epoch) and its timers; default Date.now and Node's timers. */
  now?: () => number
  timers?: Timers
  /** Replaces the HTTP attempt (tests). */
  send?: (claimed: ClaimedDelivery, options: DeliverOptions) => Promise<AttemptResult>
}

/**
 * The wait before retry number `retry` (1 = the first): the schedule's entry plus up to 10 %
 * of jitter (so deliveries that failed together do not retry in step), never less than a
 * `Retry-After` the receiver asked for, which is bounded by `retryAfterMaxMs`.
 */
export function retryDelay(
  retry: number,
  settings: Pick<DeliverySettings, 'retryScheduleMs' | 'retryAfterMaxMs'>,
  retryAfterMs: number | null = null,
  random: () => number = Math.random,
): number {
  const scheduled = settings.retryScheduleMs[Math.min(retry, settings.retryScheduleMs.length) - 1] ?? 0
  const jittered = scheduled + Math.floor(random() * scheduled * 0.1)
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, settings.retryAfterMaxMs))
}

/** How long the schedule keeps trying, first attempt to last, without jitter (ms). */
export const scheduleSpanMs = (settings: Pick<DeliverySettings, 'retryScheduleMs'>) => settings.retryScheduleMs.reduce((a, b) => a + b, 0)

export class Dispatcher {
  private readonly store: HookStore
  private readonly options: DispatcherOptions
  private readonly concurrency: number
  private readonly now: () => number
  private readonly timers: Timers
  private readonly inFlight = new Map<string, Promise<void>>()
  private readonly abort = new AbortController()
  private stopWork: (() => void) | null = null
  private timer: unknown = null
  private scheduled = false
  private pumping = false
  private again = false
  private closing = false

  constructor(store: HookStore, options: DispatcherOptions) {
    this.store = store
    this.options = options
    this.concurrency = options.concurrency ?? 64
    this.now = options.now ?? Date.now
    this.timers = options.timers ?? REAL_TIMERS
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
    this.clearTimer()
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
    this.timer = this.timers.setTimeout(() => {
      this.timer = null
      this.wake()
    }, Math.min(ms, 2 ** 31 - 1))
  }

  private clearTimer(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer)
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
    if (result.status === 410) return { kind: 'failed', status: 410, error, disable: 'the receiver answered 410 Gone' }
    const settings = this.options.settings
    if (made > settings.retryScheduleMs.length) {
      const span = formatSpan(scheduleSpanMs(settings))
      return { kind: 'failed', status: result.status, error, disable: `all ${made} attempts of delivery ${claimed.delivery.id} failed, over ${span} (last: ${error})` }
    }
    const at = this.now() + retryDelay(made, settings, result.retryAfterMs ?? null, this.options.random)
    return { kind: 'retry', at, status: result.status, error }
  }
}

/** A span of time for messages: `27 h 35 min`, `5 min 5 s`, `40 ms`. */
export function formatSpan(ms: number): string {
  if (ms < 1_000) return `${ms} ms`
  const parts: string[] = []
  const units: [number, string][] = [[86_400_000, 'd'], [3_600_000, 'h'], [60_000, 'min'], [1_000, 's']]
  let rest = ms
  for (const [size, unit] of units) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)} ${unit}`)
      rest %= size
    }
  }
  return parts.slice(0, 2).join(' ')
}
