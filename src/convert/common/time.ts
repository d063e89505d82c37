/** Record timestamps to canonical UTC, exactly; the run's start where a record has none. */
import { ZERO_TIME } from '../../schema/empty.js'
import { canonicalTime, formatTime, parseEpoch } from '../../time/index.js'
import type { ConvertContext } from '../types.js'

export type TimeResult = { ok: true; value: string } | { ok: false; reason: string }

const ZONELESS = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?$/
const EPOCH = /^\s*\d+(?:\.\d+)?\s*$/

/**
 * A tool's timestamp (RFC 3339 with any offset and up to 9 fraction digits, or Unix seconds
 * as a number or a string) to canonical UTC. Absent, empty or Go's zero time → `ctx.runStart`.
 */
export function eventTime(value: unknown, ctx: ConvertContext): TimeResult {
  if (value === undefined || value === null || value === '' || value === ZERO_TIME) return { ok: true, value: ctx.runStart }
  if (typeof value === 'number' || (typeof value === 'string' && EPOCH.test(value))) {
    const epoch = parseEpoch(value, 's')
    return epoch.ok ? { ok: true, value: formatTime(epoch.value) } : { ok: false, reason: `bad timestamp: ${epoch.reason}` }
  }
  if (typeof value !== 'string') return { ok: false, reason: `bad timestamp: expected a string, found ${typeof value}` }
  const result = canonicalTime(value.trim(), { lenient: true })
  return result.ok ? result : { ok: false, reason: `bad timestamp: ${result.reason}` }
}

/** A certificate validity bound: like eventTime, but absent means the zero time. */
export function validityTime(value: unknown): TimeResult {
  if (value === undefined || value === null || value === '') return { ok: true, value: ZERO_TIME }
  if (typeof value !== 'string') return { ok: false, reason: 'bad certificate validity time' }
  // Zone-less times are UTC (facts: nmap, Shodan); give them a Z.
  const trimmed = value.trim()
  const text = ZONELESS.test(trimmed) ? `${trimmed}Z` : trimmed
  const result = canonicalTime(text, { lenient: true })
  return result.ok ? result : { ok: false, reason: `bad certificate validity time: ${result.reason}` }
}
