/** Writing instants: the canonical form (Go's RFC3339Nano in UTC) and the millisecond form. */
import { ZERO_TIME } from '../schema/empty.js'
import { civilFromDays, daysFromCivil } from './calendar.js'
import { type Instant, inRange, NS_PER_DAY, NS_PER_SECOND, ZERO_INSTANT } from './instant.js'

const pad = (n: number, width: number) => String(n).padStart(width, '0')

/** Date and clock part `YYYY-MM-DDTHH:MM:SS` and the nanoseconds within the second. */
function split(value: Instant): { head: string; nanos: bigint } {
  if (!inRange(value)) throw new RangeError(`instant ${value} is outside the years 0000–9999`)
  let days = value / NS_PER_DAY
  let rest = value % NS_PER_DAY
  if (rest < 0n) {
    // bigint division truncates toward zero; we need the floor for instants before 1970.
    days -= 1n
    rest += NS_PER_DAY
  }
  const { year, month, day } = civilFromDays(Number(days))
  const secondOfDay = Number(rest / NS_PER_SECOND)
  const clock = `${pad(Math.floor(secondOfDay / 3600), 2)}:${pad(Math.floor(secondOfDay / 60) % 60, 2)}:${pad(secondOfDay % 60, 2)}`
  return { head: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${clock}`, nanos: rest % NS_PER_SECOND }
}

/**
 * The canonical form: UTC, `Z`, fraction with trailing zeros removed (none when zero).
 * Throws RangeError outside the years 0000–9999 (canonicalTime reports that as a reason).
 * One bigint division, the rest in plain numbers, and the date of the last day written kept (the
 * bulk export writes two times per line: split()'s four bigint operations, padStart calls and
 * a regular expression were about 7 % of its line making).
 */
export function formatTime(value: Instant): string {
  if (value === ZERO_INSTANT) return ZERO_TIME
  if (!inRange(value)) throw new RangeError(`instant ${value} is outside the years 0000–9999`)
  let whole = value / NS_PER_SECOND
  let nanos = Number(value - whole * NS_PER_SECOND)
  if (nanos < 0) {
    // bigint division truncates toward zero; we need the floor for instants before 1970.
    whole -= 1n
    nanos += 1e9
  }
  const seconds = Number(whole)
  const days = Math.floor(seconds / SECONDS_PER_DAY)
  const secondOfDay = seconds - days * SECONDS_PER_DAY
  if (days !== lastDay) {
    const { year, month, day } = civilFromDays(days)
    lastDate = `${pad(year, 4)}-${TWO_DIGITS[month]!}-${TWO_DIGITS[day]!}T`
    lastDay = days
  }
  const head = `${lastDate}${TWO_DIGITS[Math.floor(secondOfDay / 3600)]!}:${TWO_DIGITS[Math.floor(secondOfDay / 60) % 60]!}:${TWO_DIGITS[secondOfDay % 60]!}`
  if (nanos === 0) return `${head}Z`
  // The fraction's digits without trailing zeros: nanos/10^k written in 9-k digits.
  let width = 9
  while (nanos % 10 === 0) {
    nanos /= 10
    width--
  }
  return `${head}.${String(nanos).padStart(width, '0')}Z`
}

/** "00" … "99". */
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => pad(n, 2))
/** The day number formatTime wrote last and its `YYYY-MM-DDT`. */
let lastDay = Number.NaN
let lastDate = ''

/**
 * The canonical form of whole seconds since the epoch plus fraction digits (as read by
 * readTime), in plain numbers: what formatTime(parseTime(…)) writes, without bigints. The
 * caller checks the range (secondsInRange).
 */
export function formatSeconds(seconds: number, fraction: string): string {
  const days = Math.floor(seconds / SECONDS_PER_DAY)
  const secondOfDay = seconds - days * SECONDS_PER_DAY
  const { year, month, day } = civilFromDays(days)
  const clock = `${pad(Math.floor(secondOfDay / 3600), 2)}:${pad(Math.floor(secondOfDay / 60) % 60, 2)}:${pad(secondOfDay % 60, 2)}`
  const digits = trimZeros(fraction)
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${clock}${digits === '' ? '' : `.${digits}`}Z`
}

/** True when whole seconds since the epoch (any fraction added) have a four-digit UTC year. */
export const secondsInRange = (seconds: number): boolean => seconds >= MIN_SECONDS && seconds < END_SECONDS

const SECONDS_PER_DAY = 86_400
const MIN_SECONDS = daysFromCivil(0, 1, 1) * SECONDS_PER_DAY
const END_SECONDS = daysFromCivil(10000, 1, 1) * SECONDS_PER_DAY

function trimZeros(digits: string): string {
  let end = digits.length
  while (end > 0 && digits.charCodeAt(end - 1) === 0x30) end--
  return digits.slice(0, end)
}

/** UTC with exactly three fraction digits (subdomain `last_seen`); finer digits are truncated. */
export function formatTimeMillis(value: Instant): string {
  const { head, nanos } = split(value)
  return `${head}.${(nanos / 1_000_000n).toString().padStart(3, '0')}Z`
}
