/** Arbitraries of timestamps in the spellings the format meets: canonical, lenient, millisecond. */
import fc, { type Arbitrary } from 'fast-check'

const pad = (n: number, width: number) => String(n).padStart(width, '0')

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const monthDays = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31)

interface Civil {
  y: number
  mo: number
  d: number
  h: number
  mi: number
  s: number
}

/** A calendar date and clock time that exist, in the given years. */
function civil(minYear: number, maxYear: number): Arbitrary<Civil> {
  return fc
    .record({
      y: fc.integer({ min: minYear, max: maxYear }),
      mo: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
    })
    .map((c) => ({ ...c, d: Math.min(c.d, monthDays(c.y, c.mo)) }))
}

const stamp = (c: Civil, sep = 'T') =>
  `${pad(c.y, 4)}-${pad(c.mo, 2)}-${pad(c.d, 2)}${sep}${pad(c.h, 2)}:${pad(c.mi, 2)}:${pad(c.s, 2)}`

/** Nine fraction digits (nanoseconds), biased towards none, milliseconds and microseconds. */
const nanos = fc.oneof(
  { weight: 2, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 999 }).map((ms) => ms * 1_000_000) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 999_999 }).map((us) => us * 1000) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 999_999_999 }) },
)

/** Canonical fraction: `.` + digits with trailing zeros removed, or nothing for zero. */
const canonicalFraction = (ns: number) => (ns === 0 ? '' : `.${pad(ns, 9).replace(/0+$/, '')}`)

/** A canonical time (UTC `Z`, 0–9 fraction digits without trailing zeros), sometimes the zero time. */
export function canonicalTimeText(): Arbitrary<string> {
  const some = fc.tuple(civil(1, 9999), nanos).map(([c, ns]) => `${stamp(c)}${canonicalFraction(ns)}Z`)
  const recent = fc.tuple(civil(1990, 2040), nanos).map(([c, ns]) => `${stamp(c)}${canonicalFraction(ns)}Z`)
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('0001-01-01T00:00:00Z') },
    { weight: 4, arbitrary: recent },
    { weight: 1, arbitrary: some },
  )
}

/** Subdomain `last_seen`: UTC with exactly three fraction digits and `Z`. */
export function millisTimeText(): Arbitrary<string> {
  return fc.tuple(civil(2000, 2040), fc.integer({ min: 0, max: 999 })).map(([c, ms]) => `${stamp(c)}.${pad(ms, 3)}Z`)
}

/**
 * Any RFC 3339 time real tools write: `Z` or `±hh:mm` offsets, 1–9 fraction digits with
 * trailing zeros kept (nanoseconds), `+00:00` for UTC. Years stay well inside 0000–9999
 * after conversion to UTC, so each one has a canonical form.
 */
export function lenientTimeText(): Arbitrary<string> {
  const offset = fc.oneof(
    fc.constant('Z'),
    fc.constant('+00:00'),
    fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45)).map(
      ([sign, h, m]) => `${sign}${pad(h, 2)}:${pad(m, 2)}`,
    ),
  )
  const fraction = fc.oneof(
    fc.constant(''),
    fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 999_999_999 })).map(([digits, ns]) => `.${pad(ns, 9).slice(0, digits)}`),
  )
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('0001-01-01T00:00:00Z') },
    { weight: 6, arbitrary: fc.tuple(civil(1970, 2100), fraction, offset).map(([c, f, o]) => `${stamp(c)}${f}${o}`) },
  )
}
