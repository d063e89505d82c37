import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ZERO_TIME } from '../../src/schema/index.js'
import {
  canonicalTime,
  compareTime,
  compareTimeText,
  daysInMonth,
  diffTime,
  formatTime,
  formatTimeMillis,
  type Instant,
  MAX_INSTANT,
  MIN_INSTANT,
  parseEpoch,
  parseTime,
  ZERO_INSTANT,
} from '../../src/time/index.js'

const ok = (text: string, lenient = false): Instant => {
  const r = parseTime(text, { lenient })
  if (!r.ok) throw new Error(`${text}: ${r.reason}`)
  return r.value
}
const canon = (text: string) => {
  const r = canonicalTime(text, { lenient: true })
  return r.ok ? r.value : `error: ${r.reason}`
}
const reason = (text: string, lenient = false) => {
  const r = parseTime(text, { lenient })
  return r.ok ? 'accepted' : r.reason
}

describe('parseTime / formatTime: examples', () => {
  it('keeps every nanosecond digit and invents none', () => {
    expect(canon('2023-01-02T03:04:05.123456789+02:00')).toBe('2023-01-02T01:04:05.123456789Z')
    expect(canon('2023-01-02T03:04:05.100Z')).toBe('2023-01-02T03:04:05.1Z')
    expect(canon('2023-01-02T03:04:05.000Z')).toBe('2023-01-02T03:04:05Z')
    expect(canon('2023-01-02T03:04:05.000000001Z')).toBe('2023-01-02T03:04:05.000000001Z')
    expect(canon('2023-01-02T03:04:05.12Z')).toBe('2023-01-02T03:04:05.12Z')
    expect(ok('2023-01-02T03:04:05.000000001Z') - ok('2023-01-02T03:04:05Z')).toBe(1n)
  })

  it('converts offsets across day, month, year and leap-day boundaries', () => {
    expect(canon('2023-01-01T00:30:00+01:00')).toBe('2022-12-31T23:30:00Z')
    expect(canon('2022-12-31T23:30:00-01:00')).toBe('2023-01-01T00:30:00Z')
    expect(canon('2024-02-28T23:30:00-01:00')).toBe('2024-02-29T00:30:00Z')
    expect(canon('2024-03-01T00:10:00+00:20')).toBe('2024-02-29T23:50:00Z')
    expect(canon('2023-03-01T00:10:00+00:20')).toBe('2023-02-28T23:50:00Z')
    expect(canon('1999-12-31T23:59:59.999999999-00:01')).toBe('2000-01-01T00:00:59.999999999Z')
    expect(canon('2000-01-01T05:00:00+23:59')).toBe('1999-12-31T05:01:00Z')
    expect(canon('2023-06-15T12:00:00-00:00')).toBe('2023-06-15T12:00:00Z')
  })

  it('handles instants before 1970 and the zero time', () => {
    expect(ok('1969-12-31T23:59:59.5Z')).toBe(-500_000_000n)
    expect(ok('1970-01-01T00:00:00Z')).toBe(0n)
    expect(ok(ZERO_TIME)).toBe(ZERO_INSTANT)
    expect(ZERO_INSTANT).toBe(-62_135_596_800n * 1_000_000_000n)
    expect(formatTime(ZERO_INSTANT)).toBe('0001-01-01T00:00:00Z')
    expect(canon('0001-01-01T01:00:00+01:00')).toBe(ZERO_TIME)
    expect(formatTime(-1n)).toBe('1969-12-31T23:59:59.999999999Z')
  })

  it('rejects impossible dates and clock times with a clear reason', () => {
    expect(reason('2023-13-01T00:00:00Z')).toBe('month 13 does not exist (01–12)')
    expect(reason('2023-00-01T00:00:00Z')).toBe('month 00 does not exist (01–12)')
    expect(reason('2023-02-30T00:00:00Z')).toBe('day 30 does not exist: February 2023 has 28 days')
    expect(reason('2023-02-29T00:00:00Z')).toBe('day 29 does not exist: February 2023 has 28 days')
    expect(reason('1900-02-29T00:00:00Z')).toBe('day 29 does not exist: February 1900 has 28 days')
    expect(reason('2000-02-29T00:00:00Z')).toBe('accepted')
    expect(reason('2024-04-31T00:00:00Z')).toBe('day 31 does not exist: April 2024 has 30 days')
    expect(reason('2024-01-00T00:00:00Z')).toBe('day 00 does not exist: January 2024 has 31 days')
    expect(reason('2023-01-01T24:00:00Z')).toBe('hour 24 is out of range (00–23)')
    expect(reason('2023-01-01T23:60:00Z')).toBe('minute 60 is out of range (00–59)')
    expect(reason('2023-01-01T23:59:60Z')).toMatch(/^second 60 is out of range/)
    expect(reason('2023-01-01T00:00:00+24:00')).toBe('offset hour 24 is out of range (00–23)')
    expect(reason('2023-01-01T00:00:00+01:60')).toBe('offset minute 60 is out of range (00–59)')
  })

  it('rejects malformed text, naming what is wrong', () => {
    expect(reason('2023-01-01T00:00:00')).toMatch(/no time zone offset/)
    expect(reason('2023-01-01T00:00:00.Z')).toMatch(/'\.' without fraction digits/)
    expect(reason('2023-01-01T00:00:00.1234567891Z')).toMatch(/10 fraction digits; at most 9/)
    expect(reason('2023-1-01T00:00:00Z')).toMatch(/not an RFC 3339 date-time/)
    expect(reason('yesterday')).toMatch(/not an RFC 3339 date-time/)
    expect(reason('2023-01-01T00:00:00+0100')).toMatch(/not an RFC 3339 date-time/)
  })

  it('accepts lower-case t/z and a space separator only when lenient', () => {
    for (const text of ['2023-01-02t03:04:05Z', '2023-01-02T03:04:05z', '2023-01-02 03:04:05Z']) {
      expect(reason(text)).toMatch(/lenient/)
      expect(canon(text)).toBe('2023-01-02T03:04:05Z')
    }
  })

  it('refuses to write a UTC year outside 0000–9999', () => {
    expect(canon('0000-01-01T00:30:00+01:00')).toMatch(/^error: .*outside the years 0000–9999/)
    expect(canon('9999-12-31T23:30:00-01:00')).toMatch(/^error: .*outside the years 0000–9999/)
    expect(() => formatTime(MAX_INSTANT + 1n)).toThrow(RangeError)
    expect(formatTime(MAX_INSTANT)).toBe('9999-12-31T23:59:59.999999999Z')
    expect(formatTime(MIN_INSTANT)).toBe('0000-01-01T00:00:00Z')
  })

  it('writes the millisecond form with exactly three digits, truncating', () => {
    expect(formatTimeMillis(ok('2023-01-02T03:04:05Z'))).toBe('2023-01-02T03:04:05.000Z')
    expect(formatTimeMillis(ok('2023-01-02T03:04:05.123999999Z'))).toBe('2023-01-02T03:04:05.123Z')
    expect(formatTimeMillis(ok('2023-01-02T03:04:05.5+01:00'))).toBe('2023-01-02T02:04:05.500Z')
  })

  it('compares and subtracts exactly', () => {
    const a = ok('2023-01-02T03:04:05.000000001Z')
    const b = ok('2023-01-02T05:04:05+02:00')
    expect(compareTime(a, b)).toBe(1)
    expect(compareTime(b, a)).toBe(-1)
    expect(compareTime(a, a)).toBe(0)
    expect(diffTime(a, b)).toBe(1n)
  })
})

describe('parseEpoch', () => {
  const epoch = (v: number | string, unit?: 's' | 'ms' | 'auto') => {
    const r = parseEpoch(v, unit)
    return r.ok ? formatTime(r.value) : `error: ${r.reason}`
  }
  it('reads seconds and milliseconds, numbers or numeric strings, exactly', () => {
    expect(epoch(1700000000)).toBe('2023-11-14T22:13:20Z')
    expect(epoch('1700000000')).toBe('2023-11-14T22:13:20Z')
    expect(epoch(1700000000.123456)).toBe('2023-11-14T22:13:20.123456Z')
    expect(epoch(' 1700000000.5 ')).toBe('2023-11-14T22:13:20.5Z')
    expect(epoch(1700000000123, 'ms')).toBe('2023-11-14T22:13:20.123Z')
    expect(epoch('1700000000123.456789', 'ms')).toBe('2023-11-14T22:13:20.123456789Z')
    expect(epoch(1.7e9)).toBe('2023-11-14T22:13:20Z')
    expect(epoch(-1.5)).toBe('1969-12-31T23:59:58.5Z')
    expect(epoch(0)).toBe('1970-01-01T00:00:00Z')
  })
  it('guesses the unit with auto', () => {
    expect(epoch(1700000000, 'auto')).toBe('2023-11-14T22:13:20Z')
    expect(epoch(1700000000123, 'auto')).toBe('2023-11-14T22:13:20.123Z')
  })
  it('rounds digits finer than a nanosecond instead of failing on float noise', () => {
    expect(epoch(0.1 + 0.2)).toBe('1970-01-01T00:00:00.3Z')
    expect(epoch('0.0000000015')).toBe('1970-01-01T00:00:00.000000002Z')
  })
  it('rejects what is not a number, or out of range', () => {
    expect(epoch(Number.NaN)).toMatch(/^error: NaN is not a finite number/)
    expect(epoch(Number.POSITIVE_INFINITY)).toMatch(/^error: Infinity/)
    expect(epoch('12abc')).toMatch(/^error: '12abc' is not a number/)
    expect(epoch('')).toMatch(/^error:/)
    expect(epoch('.')).toMatch(/^error:/)
    expect(epoch(1e300)).toMatch(/out of range|outside the years/)
    expect(epoch(300000000000)).toMatch(/outside the years 0000–9999/)
  })
})

describe('time properties', () => {
  const instant = fc.bigInt({ min: MIN_INSTANT, max: MAX_INSTANT })
  const fraction = fc.oneof(
    fc.constant(''),
    fc.stringMatching(/^[0-9]{0,8}[1-9]$/).map((digits) => `.${digits}`),
  )
  /** Canonical strings built from calendar parts, independently of formatTime. */
  const canonical = fc
    .record({
      year: fc.integer({ min: 0, max: 9999 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      fraction,
    })
    .map((p) => {
      const day = Math.min(p.day, daysInMonth(p.year, p.month))
      const two = (n: number) => String(n).padStart(2, '0')
      return `${String(p.year).padStart(4, '0')}-${two(p.month)}-${two(day)}T${two(p.hour)}:${two(p.minute)}:${two(p.second)}${p.fraction}Z`
    })

  it('parse → format → parse is the identity on canonical strings', () => {
    fc.assert(
      fc.property(canonical, (text) => {
        const value = ok(text)
        expect(formatTime(value)).toBe(text)
        expect(ok(formatTime(value))).toBe(value)
      }),
      { numRuns: 200 },
    )
    fc.assert(
      fc.property(instant, (value) => {
        expect(ok(formatTime(value))).toBe(value)
      }),
      { numRuns: 200 },
    )
  })

  it('any offset form and its UTC form compare equal', () => {
    const offset = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 })
    fc.assert(
      fc.property(instant, offset, (value, minutes) => {
        const local = value + BigInt(minutes) * 60_000_000_000n
        fc.pre(local >= MIN_INSTANT && local <= MAX_INSTANT)
        const abs = Math.abs(minutes)
        const suffix = `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
        const withOffset = formatTime(local).replace(/Z$/, suffix)
        const utc = formatTime(value)
        expect(compareTime(ok(withOffset), ok(utc))).toBe(0)
        expect(canon(withOffset)).toBe(utc)
      }),
      { numRuns: 200 },
    )
  })

  it('never loses or invents a fraction digit', () => {
    const digits = fc.stringMatching(/^[0-9]{1,9}$/)
    fc.assert(
      fc.property(canonical, digits, fc.constantFrom('Z', '+00:00', '-00:00', 'z'), (text, frac, zone) => {
        const input = text.replace(/(\.\d+)?Z$/, `.${frac}${zone}`)
        const out = canon(input)
        const expected = frac.replace(/0+$/, '')
        expect(out).toBe(text.replace(/(\.\d+)?Z$/, expected === '' ? 'Z' : `.${expected}Z`))
      }),
      { numRuns: 200 },
    )
  })

  it('agrees with Date at millisecond precision (an independent oracle)', () => {
    const ms = fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })
    fc.assert(
      fc.property(ms, (millis) => {
        const iso = new Date(millis).toISOString()
        expect(ok(iso)).toBe(BigInt(millis) * 1_000_000n)
        expect(formatTimeMillis(BigInt(millis) * 1_000_000n)).toBe(iso)
      }),
      { numRuns: 200 },
    )
  })
})

describe('compareTimeText', () => {
  it('orders canonical texts as their instants, and other spellings by reading them (property)', () => {
    const instant = fc.oneof(fc.bigInt({ min: MIN_INSTANT, max: MAX_INSTANT }), fc.bigInt({ min: 0n, max: 10n ** 10n }).map((n) => 1_700_000_000_000_000_000n + n))
    fc.assert(
      fc.property(instant, instant, (a, b) => {
        const order = Math.sign(compareTimeText(formatTime(a), formatTime(b)))
        expect(order).toBe(compareTime(a, b))
        // An offset spelling of `a` is read, not compared as text.
        expect(Math.sign(compareTimeText(formatTime(a).replace(/Z$/, '+00:00'), formatTime(b)))).toBe(compareTime(a, b))
      }),
      { numRuns: 500 },
    )
    expect(() => compareTimeText('yesterday', '2024-01-01T00:00:00Z')).toThrow(RangeError)
  })
})
