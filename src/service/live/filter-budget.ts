/**
 * A live subscriber's filter's budget of work: `perSecond` work units a second on average
 * (query/cost.ts units), with up to LIVE_WINDOW_S seconds of it to spend at once, so a burst of
 * ingest passes and a filter that cannot keep up with a steady stream is told so. Each event
 * tested costs the query's cost per event, in proportion to the event's size (eventWork, its
 * reading aside: an event is parsed once for every group).
 */
import { eventWork } from '../../query/index.js'
import { LIVE_WINDOW_S } from '../ratelimit/index.js'

export class FilterBudget {
  private tokens: number
  private at: number

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond * LIVE_WINDOW_S
    this.at = now()
  }

  /** Takes the work of testing one event of `bytes` bytes with a filter of `cost`; false when the budget does not hold it. */
  take(cost: number, bytes: number): boolean {
    if (this.perSecond === Infinity) return true
    const now = this.now()
    this.tokens = Math.min(this.perSecond * LIVE_WINDOW_S, this.tokens + ((now - this.at) / 1000) * this.perSecond)
    this.at = now
    this.tokens -= eventWork(cost, bytes) - eventWork(0, bytes)
    return this.tokens >= 0
  }
}
