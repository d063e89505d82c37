/**
 * The windows /api/plugins counts over, shared by every store. An event is counted in two
 * buckets by its `time`: its UTC minute (for the hour window) and its UTC hour (for the day and
 * week windows). At `now`:
 * - 1h: minutes m−59 … m (m = now's minute): the last 60 whole minutes, the current one included;
 * - 24h: hours h−23 … h; 7d: hours h−167 … h (h = now's hour).
 * So each count is exact to its bucket (a minute, an hour) and 1h ≤ 24h ≤ 7d always holds (every
 * minute of the first window lies in an hour of the second). Times after the current minute or
 * hour are not counted until they come. A bucket that can no longer fall in a window (a minute
 * over an hour old, an hour over 167 hours old) is not kept: stores count for windows that end
 * now, and asking about an earlier `now` than the last ingest is not supported.
 */
import type { Instant } from '../../time/index.js'

export const NS_PER_MINUTE = 60_000_000_000n
export const NS_PER_HOUR = 3_600_000_000_000n

/** How many buckets each window spans (minutes for 1h, hours for the others). */
export const PLUGIN_WINDOWS = { minutes1h: 60, hours24h: 24, hours7d: 168 } as const

/** A floor division (time/ counts nanoseconds from 1970, negative before it). */
const floorDiv = (t: Instant, unit: bigint): number => Number(t >= 0n ? t / unit : -((-t + unit - 1n) / unit))

/** The UTC minute of a time, counted from the Unix epoch. */
export const minuteOf = (t: Instant): number => floorDiv(t, NS_PER_MINUTE)
/** The UTC hour of a time, counted from the Unix epoch. */
export const hourOf = (t: Instant): number => floorDiv(t, NS_PER_HOUR)

/** The UTC hour of a UTC minute (as hourOf gives for the times in that minute). */
export const hourOfMinute = (minute: number): number => Math.floor(minute / 60)

/**
 * The earliest minute and hour buckets that can still count at `now` or later: minuteKept and
 * hourKept as two comparisons, for a batch of events counted at one clock (no bigint division
 * per event).
 */
export function keptFrom(now: Instant): { minute: number; hour: number } {
  return { minute: minuteOf(now) - PLUGIN_WINDOWS.minutes1h + 1, hour: hourOf(now) - PLUGIN_WINDOWS.hours7d + 1 }
}

/** Whether a minute bucket can still count in a 1h window ending at `now` or later. */
export const minuteKept = (minute: number, now: Instant): boolean => minute > minuteOf(now) - PLUGIN_WINDOWS.minutes1h
/** Whether an hour bucket can still count in a 7d window ending at `now` or later. */
export const hourKept = (hour: number, now: Instant): boolean => hour > hourOf(now) - PLUGIN_WINDOWS.hours7d

/** The bucket ranges (inclusive) of each window at `now`. */
export function windowsAt(now: Instant): { minutes: [number, number]; hours24h: [number, number]; hours7d: [number, number] } {
  const m = minuteOf(now)
  const h = hourOf(now)
  return {
    minutes: [m - PLUGIN_WINDOWS.minutes1h + 1, m],
    hours24h: [h - PLUGIN_WINDOWS.hours24h + 1, h],
    hours7d: [h - PLUGIN_WINDOWS.hours7d + 1, h],
  }
}

/** The current time as an Instant (nanoseconds since the Unix epoch, to the millisecond). */
export const nowInstant = (): Instant => BigInt(Date.now()) * 1_000_000n
