/** The exact time value: bigint nanoseconds since 1970-01-01T00:00:00Z, and its bounds. */
import { daysFromCivil } from './calendar.js'

/** Nanoseconds since 1970-01-01T00:00:00Z (negative before). */
export type Instant = bigint

export const NS_PER_SECOND = 1_000_000_000n
export const NS_PER_DAY = 86_400n * NS_PER_SECOND

/** The zero time of the format, 0001-01-01T00:00:00Z ("unset"). */
export const ZERO_INSTANT: Instant = BigInt(daysFromCivil(1, 1, 1)) * NS_PER_DAY

/** First and last instants that have a four-digit UTC year (0000–9999): what we can write. */
export const MIN_INSTANT: Instant = BigInt(daysFromCivil(0, 1, 1)) * NS_PER_DAY
export const MAX_INSTANT: Instant = BigInt(daysFromCivil(10000, 1, 1)) * NS_PER_DAY - 1n

/** True when the instant can be written with a four-digit UTC year. */
export const inRange = (value: Instant): boolean => value >= MIN_INSTANT && value <= MAX_INSTANT

/** -1, 0 or 1 as `a` is before, equal to or after `b` (usable as a sort comparator). */
export const compareTime = (a: Instant, b: Instant): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0)

/** `a - b` in nanoseconds, exactly. */
export const diffTime = (a: Instant, b: Instant): bigint => a - b
