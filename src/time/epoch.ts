/** Epoch seconds or milliseconds (as tools write them) to exact instants. */
import { type Instant, inRange } from './instant.js'
import type { TimeResult } from './parse.js'

export type EpochUnit = 's' | 'ms' | 'auto'

const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

/** Values at or above this magnitude are milliseconds in `auto` (1e11 s is the year 5138). */
const AUTO_MS_FROM = 1e11

/**
 * Epoch seconds or milliseconds, as a JSON number or a numeric string, to an instant.
 * Decimal digits are used exactly (a number through its shortest round-trip text); digits
 * finer than a nanosecond are rounded half away from zero. `auto` reads values of 1e11 and
 * above as milliseconds.
 */
export function parseEpoch(value: number | string, unit: EpochUnit = 's'): TimeResult {
  if (typeof value === 'number' && !Number.isFinite(value)) return { ok: false, reason: `${value} is not a finite number` }
  if (typeof value !== 'number' && typeof value !== 'string') return { ok: false, reason: 'expected a number or a numeric string' }
  const text = String(value)
  const m = DECIMAL.exec(text)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return { ok: false, reason: `'${text}' is not a number of seconds or milliseconds` }
  const [, sign, int = '', frac = '', exp = '0'] = m
  const resolved = unit === 'auto' ? (Math.abs(Number(text)) >= AUTO_MS_FROM ? 'ms' : 's') : unit
  // digits × 10^(exponent − fraction length + scale) nanoseconds.
  const shift = Number(exp) - frac.length + (resolved === 's' ? 9 : 6)
  if (Math.abs(shift) > 400) return { ok: false, reason: `'${text}' is out of range` }
  let nanos = BigInt(`${int}${frac}` || '0')
  if (shift >= 0) nanos *= 10n ** BigInt(shift)
  else {
    const divisor = 10n ** BigInt(-shift)
    const rounded = nanos / divisor
    nanos = nanos % divisor >= divisor / 2n ? rounded + 1n : rounded
  }
  const instant: Instant = sign === '-' ? -nanos : nanos
  if (!inRange(instant)) return { ok: false, reason: `'${text}' ${resolved === 's' ? 'seconds' : 'milliseconds'} is outside the years 0000–9999` }
  return { ok: true, value: instant }
}
