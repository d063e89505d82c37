/**
 * Client-side pacing: request starts are spaced at least `1/rate` seconds apart, so a
 * well-behaved client never meets a 429 in the first place. A 429's wait holds every
 * request that shares the pacer, not just the one that got it.
 */
import { sleep } from './sleep.js'

export type Rate = number | 'auto'

export class Pacer {
  private next = 0
  private readonly interval: number

  /** `rate` in requests per second; `'auto'` = no spacing, only the waits 429s ask for. */
  constructor(
    rate: Rate = 1,
    private readonly clock: () => number = () => performance.now(),
  ) {
    if (rate !== 'auto' && !(rate > 0)) throw new RangeError(`rate must be a positive number of requests per second or 'auto' (got ${rate})`)
    this.interval = rate === 'auto' ? 0 : 1000 / rate
  }

  /** Waits for this request's turn. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.clock()
    const at = Math.max(now, this.next)
    this.next = at + this.interval
    // Timers may fire a fraction of a millisecond early: sleep again until the clock agrees.
    for (let left = at - now; left > 0; left = at - this.clock()) await sleep(Math.ceil(left), signal)
  }

  /** No request starts before `ms` from now (a 429 told us to wait). */
  holdFor(ms: number): void {
    this.next = Math.max(this.next, this.clock() + ms)
  }
}
