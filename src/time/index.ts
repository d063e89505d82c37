/**
 * RFC 3339 timestamps as exact values: bigint nanoseconds, never through `Date` (which keeps
 * only milliseconds). Parse any offset, write the canonical UTC form, compare and subtract.
 */
import { TIME_CANONICAL } from '../schema/patterns.js'
import { formatSeconds, secondsInRange } from './format.js'
import { type ParseTimeOptions, readTime } from './parse.js'

export { daysFromCivil, civilFromDays, daysInMonth, isLeapYear } from './calendar.js'
export { type EpochUnit, parseEpoch } from './epoch.js'
export { formatTime, formatTimeMillis } from './format.js'
export { compareTime, diffTime, type Instant, MAX_INSTANT, MIN_INSTANT, ZERO_INSTANT } from './instant.js'
export { compareTimeText } from './compare-text.js'
export { type ParseTimeOptions, parseTime, type TimeResult } from './parse.js'

const CANONICAL_RE = new RegExp(TIME_CANONICAL)

/** Parses then writes the canonical form; fails when the UTC year leaves 0000–9999. */
export function canonicalTime(text: string, opts?: ParseTimeOptions): { ok: true; value: string } | { ok: false; reason: string } {
  // Already canonical (most certificate bounds): parsing and writing it again gives it back.
  if (typeof text === 'string' && CANONICAL_RE.test(text)) return { ok: true, value: text }
  const parsed = readTime(text, opts)
  if (!parsed.ok) return parsed
  if (!secondsInRange(parsed.seconds)) return { ok: false, reason: `'${text}' falls outside the years 0000–9999 once converted to UTC` }
  return { ok: true, value: formatSeconds(parsed.seconds, parsed.fraction) }
}
