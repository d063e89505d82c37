/**
 * Days open of a finding: the whole days from its first seen time to its last seen time
 * (24-hour periods, rounded down; 0 when both fall within one day of each other). It ends at
 * `last_seen` for every stage, an `open` leak included: the service knows a finding was open
 * when it was last observed, not that it still is, and a page must not change with the clock
 * alone. A fresh observation moves `last_seen`, and the count with it.
 */
import { parseTime } from '../../time/index.js'

const NS_PER_DAY = 86_400_000_000_000n

/** Whole days from `firstSeen` to `lastSeen` (canonical RFC 3339 text); 0 if either does not parse or last < first. */
export function daysOpen(firstSeen: string, lastSeen: string): number {
  const first = parseTime(firstSeen)
  const last = parseTime(lastSeen)
  if (!first.ok || !last.ok || last.value < first.value) return 0
  return Number((last.value - first.value) / NS_PER_DAY)
}
