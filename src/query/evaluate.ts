/**
 * The evaluator: does a query match an event document? The oracle every other part is checked
 * against (the stores' indexes and SQL, conform). Never throws on any document: values of an
 * unexpected type simply do not match.
 *
 * `seen` gives the finding's first and last seen times (the stores keep them); without it,
 * both are the event's own `time`, so `creation_date` = `update_date` = `time` and `age` = 0.
 */
import { canonicalDomain } from '../names/domain.js'
import { TIME_CANONICAL } from '../schema/patterns.js'
import { type Instant, parseTime } from '../time/index.js'
import { addressBytes, eventAddress, inRange } from './address.js'
import type { Field } from './fields.js'
import { asciiLower, asciiUpper, phraseMatcher, storable } from './text.js'
import type { Bound, Cond, Query, Test, TestCond } from './types.js'

export interface Seen {
  first: Instant
  last: Instant
}

const NS_PER_DAY = 86_400_000_000_000n
const CANONICAL_TIME = new RegExp(TIME_CANONICAL)
const ZERO_TIME = '0001-01-01T00:00:00Z'
/** The values a numeric keyword (`port`) compares as numbers in a range; others are in no range. */
export const DECIMAL = /^[0-9]{1,9}$/

/** True when `doc` (a parsed event document) matches `query` in its scope. */
export function matches(query: Query, doc: unknown, seen?: Seen): boolean {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return false
  const event = doc as Record<string, unknown>
  if (query.scope !== 'any' && event.event_type !== query.scope) return false
  return holds(query.cond, event, seen)
}

/** True when `cond` holds for the event (the scope is not checked). */
export function holds(cond: Cond, event: Record<string, unknown>, seen: Seen | undefined): boolean {
  switch (cond.kind) {
    case 'all':
      return true
    case 'bool':
      for (const c of cond.must) if (!holds(c, event, seen)) return false
      for (const c of cond.not) if (holds(c, event, seen)) return false
      if (cond.must.length === 0 && cond.should.length > 0) return cond.should.some((c) => holds(c, event, seen))
      return true
    case 'test':
      return cond.fields.some((field) => testField(cond, field, event, seen))
  }
}

function testField(cond: TestCond, field: Field, event: Record<string, unknown>, seen: Seen | undefined): boolean {
  const test = cond.test
  switch (field.source) {
    case 'address': {
      const address = eventAddress(event.ip, event.host)
      if (address === null) return false
      if (test.kind === 'exists') return true
      return test.kind === 'address' && inRange(addressBytes(address)!, test.range)
    }
    case 'name': {
      if (test.kind === 'regex') break // on the host as written, below
      const name = typeof event.host === 'string' && event.host !== '' ? canonicalDomain(event.host) : null
      if (name === null) return false
      return test.kind === 'exists' || (test.kind === 'name' && nameMatches(name, test))
    }
    case 'first_seen':
    case 'last_seen': {
      const instant = seenInstant(event, seen, field.source)
      return instant !== null && instantMatches(instant, test)
    }
    case 'age': {
      const first = seenInstant(event, seen, 'first_seen')
      const last = seenInstant(event, seen, 'last_seen')
      if (first === null || last === null) return false
      const age = last < first ? 0 : Number((last - first) / NS_PER_DAY)
      return test.kind === 'exists' ? age !== 0 : test.kind === 'range' && inBounds(age, test)
    }
    case 'country':
      return countryMatches(event, test)
  }
  if (field.type === 'map') return mapMatches(event, field, cond.key, test)
  return valuesAt(event, field.path).some((value) => valueMatches(field, value, test))
}

/** Every value at `path` ('[]' steps into each element of an array); none when a member is missing. */
export function valuesAt(doc: unknown, path: readonly string[], from = 0): unknown[] {
  let node: unknown = doc
  for (let i = from; i < path.length; i++) {
    const step = path[i]!
    if (step === '[]') {
      if (!Array.isArray(node)) return []
      return node.flatMap((item) => valuesAt(item, path, i + 1))
    }
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, step)) return []
    node = (node as Record<string, unknown>)[step]
  }
  return [node]
}

function valueMatches(field: Field, value: unknown, test: Test): boolean {
  switch (field.type) {
    case 'text':
    case 'keyword':
      if (test.kind === 'range') return field.numeric === true && typeof value === 'string' && DECIMAL.test(value) && inBounds(Number(value), test)
      return typeof value === 'string' && stringMatches(storable(value), test)
    case 'dns': {
      if (typeof value !== 'string') return false
      if (test.kind === 'regex') return test.regex.test(storable(value))
      const name = nameForm(value)
      return name !== '' && (test.kind === 'exists' || (test.kind === 'name' && nameMatches(name, test)))
    }
    case 'integer':
    case 'float':
      if (typeof value !== 'number') return false
      return test.kind === 'exists' ? value !== 0 : test.kind === 'range' && inBounds(value, test)
    case 'bool':
      if (typeof value !== 'boolean') return false
      return test.kind === 'exists' ? value : test.kind === 'bool' && value === test.value
    case 'date': {
      const instant = timeOf(value)
      return instant !== null && (test.kind === 'exists' ? value !== ZERO_TIME : instantMatches(instant, test))
    }
    default:
      return false
  }
}

/** Tests on a (sanitised) string value of a text or keyword field, or of a header. */
function stringMatches(value: string, test: Test): boolean {
  switch (test.kind) {
    case 'exists':
      return value !== ''
    case 'equals':
      return value === test.value
    case 'regex':
      return test.regex.test(value)
    case 'words':
      return phraseOf(test)(value)
    default:
      return false
  }
}

/** Phrase matchers, made once per test. */
const phrases = new WeakMap<object, (value: string) => boolean>()
function phraseOf(test: Test & { kind: 'words' }): (value: string) => boolean {
  let m = phrases.get(test)
  if (m === undefined) phrases.set(test, (m = phraseMatcher(test.words)))
  return m
}

function mapMatches(event: Record<string, unknown>, field: Field, key: string | undefined, test: Test): boolean {
  const map = valuesAt(event, field.path)[0]
  if (typeof map !== 'object' || map === null || Array.isArray(map)) return false
  for (const [name, value] of Object.entries(map)) {
    if (key !== undefined && asciiLower(storable(name)) !== key) continue
    if (typeof value !== 'string') continue
    if (test.kind === 'exists' || stringMatches(storable(value), test)) return true
  }
  return false
}

function countryMatches(event: Record<string, unknown>, test: Test): boolean {
  const geoip = event.geoip
  if (typeof geoip !== 'object' || geoip === null) return false
  const { code, name } = countryOf(geoip as Record<string, unknown>)
  if (test.kind === 'exists') return code !== '' || name !== ''
  if (test.kind !== 'country') return false
  return (test.code !== null && code === test.code) || (name !== '' && test.names.includes(name))
}

/** An event's country as the stores index it: the ISO code in upper case, the name in lower case (ASCII letters). */
export function countryOf(geoip: Record<string, unknown>): { code: string; name: string } {
  const code = typeof geoip.country_iso_code === 'string' ? asciiUpper(storable(geoip.country_iso_code)) : ''
  const name = typeof geoip.country_name === 'string' ? asciiLower(storable(geoip.country_name)) : ''
  return { code, name }
}

/** A dns value as compared: ASCII lower case, one trailing dot dropped. */
export function nameForm(value: string): string {
  const lower = asciiLower(storable(value))
  return lower.endsWith('.') ? lower.slice(0, -1) : lower
}

function nameMatches(name: string, test: { name: string; under: boolean }): boolean {
  return name === test.name || (test.under && name.endsWith(`.${test.name}`))
}

function inBounds(value: number | bigint, test: { lo?: Bound; hi?: Bound }): boolean {
  if (test.lo && (test.lo.inclusive ? value < test.lo.value : value <= test.lo.value)) return false
  if (test.hi && (test.hi.inclusive ? value > test.hi.value : value >= test.hi.value)) return false
  return true
}

function instantMatches(instant: Instant, test: Test): boolean {
  return test.kind === 'exists' ? instant !== ZERO_INSTANT : test.kind === 'range' && inBounds(instant, test)
}

const ZERO_INSTANT = (parseTime(ZERO_TIME) as { value: Instant }).value

/** A canonical time's instant; null for anything else (the stores hold canonical times only). */
function timeOf(value: unknown): Instant | null {
  if (typeof value !== 'string' || !CANONICAL_TIME.test(value)) return null
  const parsed = parseTime(value)
  return parsed.ok ? parsed.value : null
}

function seenInstant(event: Record<string, unknown>, seen: Seen | undefined, which: 'first_seen' | 'last_seen'): Instant | null {
  if (seen !== undefined) return which === 'first_seen' ? seen.first : seen.last
  return timeOf(event.time)
}
