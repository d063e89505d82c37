/** Record timestamps to canonical UTC, exactly; the run's start where a record has none. */
import { ZERO_TIME } from '../../schema/empty.js'
import { canonicalTime, formatTime, parseEpoch } from '../../time/index.js'
import type { ConvertContext } from '../types.js'

export type TimeResult = { ok: true; value: string } | { ok: false; reason: string }

const ZONELESS = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?$/
const EPOCH = /^\s*\d+(?:\.\d+)?\s*$/

// Tool timestamps' usual shape: whole seconds (19 characters), 0–9 fraction digits, the zone.
const SHAPED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/
// UTC of the whole seconds met so far (seconds and zone, without fraction): the records of
// a run share them, so most times skip the parse. Bounded; cleared when full.
const wholeSeconds = new Map<string, string>()
const WHOLE_SECONDS_MAX = 4096

/**
 * canonicalTime(text, lenient), remembering whole seconds: offsets are whole minutes, so the
 * fraction (trailing zeros dropped) carries over unchanged to the UTC time.
 */
function toolTime(text: string): TimeResult {
  if (!SHAPED.test(text)) return canonicalTime(text, { lenient: true })
  const zoneAt = text.length - (text.endsWith('Z') ? 1 : 6)
  const key = zoneAt === 19 ? text : `${text.slice(0, 19)}${text.slice(zoneAt)}`
  let whole = wholeSeconds.get(key)
  if (whole === undefined) {
    const result = canonicalTime(key, { lenient: true })
    if (!result.ok) return canonicalTime(text, { lenient: true }) // its reason names the whole text
    if (wholeSeconds.size >= WHOLE_SECONDS_MAX) wholeSeconds.clear()
    wholeSeconds.set(key, (whole = result.value))
  }
  let end = zoneAt // fraction digits are text[20, end) once trailing zeros are dropped
  while (end > 20 && text.charCodeAt(end - 1) === 0x30) end--
  return { ok: true, value: end <= 20 ? whole : `${whole.slice(0, -1)}.${text.slice(20, end)}Z` }
}

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
  const result = toolTime(value.trim())
  return result.ok ? result : { ok: false, reason: `bad timestamp: ${result.reason}` }
}

/** A certificate validity bound: like eventTime, but absent means the zero time. */
export function validityTime(value: unknown): TimeResult {
  if (value === undefined || value === null || value === '') return { ok: true, value: ZERO_TIME }
  if (typeof value !== 'string') return { ok: false, reason: 'bad certificate validity time' }
  // Zone-less times are UTC (facts: nmap, Shodan); give them a Z.
  const trimmed = value.trim()
  const text = ZONELESS.test(trimmed) ? `${trimmed}Z` : trimmed
  const result = toolTime(text)
  return result.ok ? result : { ok: false, reason: `bad certificate validity time: ${result.reason}` }
}
