/**
 * Token-bucket rate limiting per caller: a bucket holds up to `burst` tokens, refills at
 * `rate` tokens per second, and each request takes one. The clock is injectable for tests.
 */
import { performance } from 'node:perf_hooks'

/** How fast one caller may go. */
export interface RateRule {
  /** Requests per second on average. */
  rate: number
  /** Requests that may be made at once after a quiet period (bucket size, ≥ 1). */
  burst: number
}

export interface LimiterOptions {
  /** Monotonic time in milliseconds; default `performance.now`. */
  now?: () => number
  /**
   * How early (ms) a request may arrive and still pass. Timers fire up to about a millisecond
   * early against a monotonic clock, so a client that sleeps exactly `x-limited-for` would
   * otherwise be refused now and then.
   */
  graceMs?: number
  /** Above this many buckets, full (idle) ones are dropped. */
  maxIdleBuckets?: number
}

const EPSILON = 1e-9

interface Bucket {
  tokens: number
  at: number
  perMs: number
  burst: number
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()
  private readonly now: () => number
  private readonly graceMs: number
  private sweepAt: number

  constructor(options: LimiterOptions = {}) {
    // The module's `performance`, not the global one: that is a getter, run on every request.
    this.now = options.now ?? (() => performance.now())
    this.graceMs = options.graceMs ?? 5
    this.sweepAt = options.maxIdleBuckets ?? 10_000
  }

  /**
   * Takes one token from `key`'s bucket. Returns 0 when the request may proceed, otherwise
   * the wait in whole milliseconds (rounded up) after which the next request will pass.
   */
  take(key: string, rule: RateRule): number {
    const now = this.now()
    const perMs = rule.rate / 1000
    let bucket = this.buckets.get(key)
    if (bucket === undefined) {
      if (this.buckets.size >= this.sweepAt) this.sweep(now)
      bucket = { tokens: rule.burst, at: now, perMs, burst: rule.burst }
      this.buckets.set(key, bucket)
    } else {
      bucket.tokens = Math.min(rule.burst, bucket.tokens + (now - bucket.at) * perMs)
      bucket.at = now
      bucket.perMs = perMs
      bucket.burst = rule.burst
    }
    // EPSILON absorbs floating-point error: waiting exactly the reported time must be enough.
    if (bucket.tokens + this.graceMs * perMs >= 1 - EPSILON) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs))
  }

  /** Number of buckets held (for tests and diagnostics). */
  get size(): number {
    return this.buckets.size
  }

  /** Drops buckets that have refilled completely: they carry no information. */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * bucket.perMs >= bucket.burst) this.buckets.delete(key)
    }
    // Many callers busy at once: sweep again only when the map has doubled (amortised O(1)).
    this.sweepAt = Math.max(this.sweepAt, this.buckets.size * 2)
  }
}
