/** The plugin windows' number forms (keptFrom, hourOfMinute: one bigint division per counted event) agree with their definitions. */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { hourKept, hourOf, hourOfMinute, keptFrom, minuteKept, minuteOf, NS_PER_HOUR, NS_PER_MINUTE } from '../../../src/service/store/plugin-windows.js'

const YEARS = 10_000n * 366n * 24n * NS_PER_HOUR
const instant = fc.oneof(fc.bigInt({ min: -YEARS, max: YEARS }), fc.bigInt({ min: -3n * NS_PER_HOUR, max: 3n * NS_PER_HOUR }))
/** A time near `now`, on either side of a window's edge. */
const near = (now: bigint, offset: bigint) => now + offset

it('hourOfMinute(minuteOf(t)) is hourOf(t), before 1970 too (property)', () => {
  fc.assert(
    fc.property(instant, (t) => {
      expect(hourOfMinute(minuteOf(t))).toBe(hourOf(t))
    }),
  )
})

it('keptFrom(now) draws the line minuteKept and hourKept draw (property)', () => {
  const offset = fc.oneof(fc.bigInt({ min: -200n * NS_PER_HOUR, max: NS_PER_HOUR }), fc.constantFrom(-60n * NS_PER_MINUTE, -59n * NS_PER_MINUTE, -168n * NS_PER_HOUR, -167n * NS_PER_HOUR, 0n))
  fc.assert(
    fc.property(instant, offset, (now, off) => {
      const from = keptFrom(now)
      const t = near(now, off)
      const minute = minuteOf(t)
      const hour = hourOf(t)
      expect(minute >= from.minute).toBe(minuteKept(minute, now))
      expect(hour >= from.hour).toBe(hourKept(hour, now))
    }),
  )
})
