/** Parsing RFC 3339 date-times to exact instants, with reasons a person can act on. */
import { daysFromCivil, daysInMonth } from './calendar.js'
import { type Instant, NS_PER_SECOND } from './instant.js'

const SECONDS_PER_DAY = 86_400

export type TimeResult = { ok: true; value: Instant } | { ok: false; reason: string }

export interface ParseTimeOptions {
  /** Also accept lower-case `t`/`z` and a space between date and time (what some tools write). */
  lenient?: boolean
}

// Shape only; field ranges are checked below so the reason can name the bad field.
const SHAPE = /^(\d{4})-(\d{2})-(\d{2})([Tt ])(\d{2}):(\d{2}):(\d{2})(?:\.(\d*))?(?:([Zz])|([+-])(\d{2}):(\d{2}))?$/

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason })

/**
 * Parses an RFC 3339 date-time (`Z` or `±hh:mm` offset, 0–9 fraction digits) to nanoseconds
 * since the Unix epoch, exactly. Impossible dates and clock times are rejected with a reason.
 */
export function parseTime(text: string, opts: ParseTimeOptions = {}): TimeResult {
  const read = readTime(text, opts)
  if (!read.ok) return read
  const nanos = read.fraction === '' ? 0n : BigInt(read.fraction.padEnd(9, '0'))
  return { ok: true, value: BigInt(read.seconds) * NS_PER_SECOND + nanos }
}

/**
 * An RFC 3339 date-time as whole seconds since the Unix epoch (a safe integer for every
 * four-digit year) and its fraction digits as written ('' when none): what parseTime turns
 * into an instant, and what canonicalTime writes out without bigint arithmetic.
 */
export type TimeParts = { ok: true; seconds: number; fraction: string } | { ok: false; reason: string }

/** Checks and reads a date-time as parseTime does (same reasons), without building an instant. */
export function readTime(text: string, opts: ParseTimeOptions = {}): TimeParts {
  if (typeof text !== 'string') return fail(`expected a string, found ${text === null ? 'null' : typeof text}`)
  const m = SHAPE.exec(text)
  if (!m) return fail(`'${clip(text)}' is not an RFC 3339 date-time such as 2023-01-02T03:04:05.123Z or 2023-01-02T03:04:05+02:00`)
  const [, y, mo, d, sep, h, mi, s, frac, z, sign, oh, om] = m as unknown as string[]
  if (z === undefined && sign === undefined) return fail(`'${clip(text)}' has no time zone offset (Z or ±hh:mm)`)
  if (!opts.lenient && (sep !== 'T' || z === 'z')) {
    return fail(`'${clip(text)}' uses a lower-case 't'/'z' or a space separator, accepted only in the lenient profile`)
  }
  if (frac !== undefined && frac.length === 0) return fail(`'${clip(text)}' has a '.' without fraction digits`)
  if (frac !== undefined && frac.length > 9) {
    return fail(`'${clip(text)}' has ${frac.length} fraction digits; at most 9 (nanoseconds) can be kept exactly`)
  }
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (month < 1 || month > 12) return fail(`month ${mo} does not exist (01–12)`)
  const last = daysInMonth(year, month)
  if (day < 1 || day > last) return fail(`day ${d} does not exist: ${MONTHS[month - 1]} ${y} has ${last} days`)
  if (hour > 23) return fail(`hour ${h} is out of range (00–23)`)
  if (minute > 59) return fail(`minute ${mi} is out of range (00–59)`)
  if (second > 59) return fail(`second ${s} is out of range (00–59; leap seconds cannot be represented)`)
  let offsetMinutes = 0
  if (sign !== undefined) {
    const offHours = Number(oh)
    const offMinutes = Number(om)
    if (offHours > 23) return fail(`offset hour ${oh} is out of range (00–23)`)
    if (offMinutes > 59) return fail(`offset minute ${om} is out of range (00–59)`)
    offsetMinutes = (sign === '-' ? -1 : 1) * (offHours * 60 + offMinutes)
  }
  const seconds = hour * 3600 + minute * 60 + second - offsetMinutes * 60
  return { ok: true, seconds: daysFromCivil(year, month, day) * SECONDS_PER_DAY + seconds, fraction: frac ?? '' }
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text)
