import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseGoDuration } from '../../src/client/index.js'
import { formatGoDuration, formatMillis, RateLimiter } from '../../src/service/index.js'

const ns = (text: string) => {
  const r = parseGoDuration(text)
  return r.ok ? Number(r.nanoseconds) : null
}

describe('Go durations', () => {
  it("formats as Go's Duration.String", () => {
    expect(formatGoDuration(0)).toBe('0s')
    expect(formatGoDuration(1)).toBe('1ns')
    expect(formatGoDuration(1500)).toBe('1.5µs')
    expect(formatGoDuration(344_240_000)).toBe('344.24ms')
    expect(formatMillis(734)).toBe('734ms')
    expect(formatMillis(1200)).toBe('1.2s')
    expect(formatMillis(1000)).toBe('1s')
    expect(formatMillis(62_500)).toBe('1m2.5s')
    expect(formatMillis(3_600_000)).toBe('1h0m0s')
    expect(formatMillis(3_723_004)).toBe('1h2m3.004s')
    expect(formatGoDuration(-1_500_000)).toBe('-1.5ms')
  })

  it("round-trips any whole number of milliseconds through the client's parser", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400_000_000 }), (ms) => {
        expect(ns(formatMillis(ms))).toBe(ms * 1e6)
      }),
      { numRuns: 200 },
    )
  })
})

describe('RateLimiter (token bucket, injected clock)', () => {
  const clock = () => {
    let now = 1000
    return { now: () => now, advance: (ms: number) => void (now += ms) }
  }

  it('lets a burst through, then reports the wait until one token is back', () => {
    const c = clock()
    const limiter = new RateLimiter({ now: c.now, graceMs: 0 })
    const rule = { rate: 1, burst: 2 }
    expect(limiter.take('k', rule)).toBe(0)
    expect(limiter.take('k', rule)).toBe(0)
    expect(limiter.take('k', rule)).toBe(1000)
    c.advance(266)
    expect(limiter.take('k', rule)).toBe(734)
    c.advance(734)
    expect(limiter.take('k', rule)).toBe(0)
    expect(limiter.take('k', rule)).toBe(1000)
  })

  it('keeps callers apart', () => {
    const c = clock()
    const limiter = new RateLimiter({ now: c.now })
    const rule = { rate: 1, burst: 1 }
    expect(limiter.take('a', rule)).toBe(0)
    expect(limiter.take('a', rule)).toBeGreaterThan(0)
    expect(limiter.take('b', rule)).toBe(0)
  })

  it('rounds waits up to whole milliseconds, and waiting that long is always enough', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.double({ min: 0, max: 3000, noNaN: true }), { maxLength: 20 }),
        (rate, burst, gaps) => {
          const c = clock()
          const limiter = new RateLimiter({ now: c.now, graceMs: 0 })
          const rule = { rate, burst }
          for (const gap of gaps) {
            c.advance(gap)
            const wait = limiter.take('k', rule)
            if (wait > 0) {
              expect(Number.isInteger(wait)).toBe(true)
              c.advance(wait)
              expect(limiter.take('k', rule)).toBe(0)
            }
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('forgives a request arriving within the grace period of its wait', () => {
    const c = clock()
    const limiter = new RateLimiter({ now: c.now, graceMs: 5 })
    const rule = { rate: 5, burst: 1 }
    expect(limiter.take('k', rule)).toBe(0)
    const wait = limiter.take('k', rule)
    expect(wait).toBe(200)
    c.advance(wait - 2)
    expect(limiter.take('k', rule)).toBe(0)
  })

  it('drops idle buckets once there are many', () => {
    const c = clock()
    const limiter = new RateLimiter({ now: c.now, maxIdleBuckets: 10 })
    const rule = { rate: 10, burst: 1 }
    for (let i = 0; i < 10; i++) limiter.take(`k${i}`, rule)
    c.advance(1000)
    limiter.take('new', rule)
    expect(limiter.size).toBe(1)
  })
})
