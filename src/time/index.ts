/**
 * RFC 3339 timestamps as exact values: bigint nanoseconds, never through `Date` (which keeps
 * only milliseconds). Parse any offset, write the canonical UTC form, compare and subtract.
 */
import { formatTime } from './format.js'
import { inRange } from './instant.js'
import { type ParseTimeOptions, parseTime } from './parse.js'

export { daysFromCivil, civilFromDays, daysInMonth, isLeapYear } from './calendar.js'
export { type EpochUnit, parseEpoch } from './epoch.js'
export { formatTime, formatTimeMillis } from './format.js'
export { compareTime, diffTime, type Instant, MAX_INSTANT, MIN_INSTANT, ZERO_INSTANT } from './instant.js'
export { type ParseTimeOptions, parseTime, type TimeResult } from './parse.js'

/** Parses then writes the canonical form; fails when the UTC year leaves 0000–9999. */
export function canonicalTime(text: string, opts?: ParseTimeOptions): { ok: true; value: string } | { ok: false; reason: string } {
  const parsed = parseTime(text, opts)
  if (!parsed.ok) return parsed
  if (!inRange(parsed.value)) return { ok: false, reason: `'${text}' falls outside the years 0000–9999 once converted to UTC` }
  return { ok: true, value: formatTime(parsed.value) }
}
