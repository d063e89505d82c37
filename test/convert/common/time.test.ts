import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { eventTime, validityTime } from '../../../src/convert/common/time.js'
import { canonicalTime } from '../../../src/time/index.js'

const ctx = { runStart: '2024-01-01T00:00:00Z', fingerprint: 1 as const, maxLineBytes: 1 << 20 }
const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))
// RFC 3339-like texts around the edges: years 0000/9999, invalid days and hours, 0–10 fraction
// digits with trailing zeros, Z or offsets up to ±23:59 (and some out of range).
const stamp = fc
  .record({
    year: fc.oneof(fc.constantFrom('0000', '0001', '9999', '2024', '2000', '1900'), fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0'))),
    month: two(13),
    day: two(32),
    hour: two(24),
    minute: two(60),
    second: two(60),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.[0-9]{0,10}$/), fc.constantFrom('.000', '.5', '.000000001', '.100000000')),
    zone: fc.oneof(fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+23:59', '-23:59', '+24:00'), fc.tuple(fc.constantFrom('+', '-'), two(23), two(59)).map(([s, h, m]) => `${s}${h}:${m}`)),
  })
  .map((p) => `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${p.fraction}${p.zone}`)

describe('tool times', () => {
  it('are canonicalTime() of the text, results and reasons alike (remembered seconds or not)', () => {
    fc.assert(
      fc.property(stamp, (text) => {
        const want = canonicalTime(text, { lenient: true })
        for (let i = 0; i < 2; i++) {
          const got = eventTime(text, ctx)
          expect(got).toEqual(want.ok ? want : { ok: false, reason: `bad timestamp: ${want.reason}` })
          const validity = validityTime(text)
          expect(validity).toEqual(want.ok ? want : { ok: false, reason: `bad certificate validity time: ${want.reason}` })
        }
      }),
      { numRuns: 2000 },
    )
  })
})
