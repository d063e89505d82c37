/** Normalisers of single values: strings, booleans, numbers, ports, times, fingerprints. */
import { ZERO_TIME } from '../schema/empty.js'
import { FINGERPRINT, INTEGER_STRING, NUMBER_STRING, PORT, TIME_CANONICAL } from '../schema/patterns.js'
import { canonicalTime } from '../time/index.js'
import { show } from './context.js'
import type { Field } from './field.js'
import { checked, either, inner, join, literal, type Pattern, STRING } from './pattern.js'

const TIME_RE = new RegExp(TIME_CANONICAL)
const FINGERPRINT_RE = new RegExp(FINGERPRINT)
const PORT_RE = new RegExp(PORT)
const INTEGER_RE = new RegExp(INTEGER_STRING)
const NUMBER_RE = new RegExp(NUMBER_STRING)
const LENIENT_FINGERPRINT_RE = /^(?:[0-9a-fA-F]{64})?$/
const PORT_DIGITS_RE = /^\d*$/

/**
 * Canonical integers in [min, max] (min is 0 for every integer of the format): those with
 * fewer digits than `max` are surely in range; longer ones are captured and compared.
 */
function intPattern(min: number, max: number): Pattern {
  if (min !== 0) return literal('(?!)') // never canonical text: the long way decides
  const safe = Math.floor(Math.log10(max + 1))
  const digits = String(max).length
  if (safe === digits) return literal(`(?:0|[1-9][0-9]{0,${safe - 1}})`)
  return join([`(?:0|[1-9][0-9]{0,${safe - 1}}|`, checked(`[1-9][0-9]{${safe}}`, (t) => t === undefined || Number(t) <= max), ')'])
}

/** Integers in [0, max] written as a JSON string of canonical digits (`"200"`): the digits. */
function intStringPattern(max: number): Pattern {
  return checked('"(?:0|[1-9][0-9]{0,15})"', (t) => {
    if (t === undefined) return true
    const digits = t.slice(1, -1)
    return Number(digits) <= max && Number.isSafeInteger(Number(digits)) && digits
  })
}

/** Any string, kept as is. */
export const text: Field<string> = {
  empty: () => '',
  fix(value, pointer, ctx) {
    if (typeof value === 'string') return value
    ctx.wrongType(pointer, 'string', value)
    return ''
  },
  canonical: (value) => typeof value === 'string',
  pattern: literal(STRING),
}

export const flag: Field<boolean> = {
  empty: () => false,
  fix(value, pointer, ctx) {
    if (typeof value === 'boolean') return value
    ctx.wrongType(pointer, 'boolean', value)
    return false
  },
  canonical: (value) => typeof value === 'boolean',
  pattern: literal('(?:true|false)'),
}

/** An integer in [min, max]; a string holding an integer (lenient) is read as one. */
export function int(min = 0, max = Number.MAX_SAFE_INTEGER): Field<number> {
  return {
    empty: () => 0,
    fix(value, pointer, ctx) {
      let n: number
      if (typeof value === 'number') {
        if (!Number.isInteger(value)) {
          ctx.wrongType(pointer, 'integer', value)
          return 0
        }
        n = value
      } else if (typeof value === 'string') {
        if (!INTEGER_RE.test(value)) {
          ctx.error('bad_number', pointer, `${show(value)} is not an integer`, { expected: 'an integer', found: value })
          return 0
        }
        n = Number(value)
      } else {
        ctx.wrongType(pointer, 'integer', value)
        return 0
      }
      if (n < min || n > max || !Number.isSafeInteger(n)) {
        ctx.error('out_of_range', pointer, `${show(value)} is out of range: must be ${min}–${max}`, { expected: `${min}–${max}`, found: value })
        return 0
      }
      return n === 0 ? 0 : n // no -0
    },
    canonical: (value) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max && !Object.is(value, -0),
    pattern: intPattern(min, max),
    lenient: min === 0 ? either(intPattern(min, max), intStringPattern(max)) : undefined,
  }
}

/** Canonical numbers in [min, max]: only JavaScript's own spelling, checked after the match. */
function numberPattern(min: number, max: number): Pattern {
  return checked('-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:e[+-][0-9]+)?', (t) => {
    if (t === undefined) return true // an alternative not taken (the lenient pattern)
    const n = Number(t)
    return n >= min && n <= max && String(n) === t
  })
}

/** A finite number in [min, max]; a numeric string (the Python port's lat/lon) is read as one. */
export function num(min: number, max: number): Field<number> {
  return {
    empty: () => 0,
    fix(value, pointer, ctx) {
      let n: number
      if (typeof value === 'number') n = value
      else if (typeof value === 'string' && NUMBER_RE.test(value)) n = Number(value)
      else if (typeof value === 'string') {
        ctx.error('bad_number', pointer, `${show(value)} is not a number`, { expected: 'a number', found: value })
        return 0
      } else {
        ctx.wrongType(pointer, 'number', value)
        return 0
      }
      if (!(n >= min && n <= max)) {
        ctx.error('out_of_range', pointer, `${show(value)} is out of range: must be ${min}–${max}`, { expected: `${min}–${max}`, found: value })
        return 0
      }
      return n === 0 ? 0 : n
    },
    canonical: (value) => typeof value === 'number' && value >= min && value <= max && !Object.is(value, -0),
    // Only JavaScript's own spelling of the number is canonical: checked after the match.
    pattern: numberPattern(min, max),
    // A number written as a string ("48.8566", the Python port): the number's own spelling.
    lenient: either(
      numberPattern(min, max),
      checked('"[-+.0-9eE]{1,32}"', (t) => {
        if (t === undefined) return true
        const number = t.slice(1, -1)
        const n = Number(number)
        return NUMBER_RE.test(number) && n >= min && n <= max && String(n === 0 ? 0 : n)
      }),
    ),
  }
}

/** A port: decimal string 0–65535 without leading zeros, or empty; numbers and zero-padded strings are read. */
export const port: Field<string> = {
  empty: () => '',
  fix(value, pointer, ctx) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65535) return String(value)
    if (typeof value === 'string') {
      if (value === '') return ''
      if (PORT_DIGITS_RE.test(value) && Number(value) <= 65535) return String(Number(value))
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      ctx.wrongType(pointer, 'string', value)
      return ''
    }
    ctx.error('bad_port', pointer, `${show(value)} is not a port number 0–65535`, { expected: 'a port number 0–65535', found: value })
    return ''
  },
  canonical: (value) => typeof value === 'string' && PORT_RE.test(value),
  pattern: literal(`"${inner(PORT)}"`),
  // A port written as a JSON number: its digits as a string.
  lenient: either(literal(`"${inner(PORT)}"`), checked('0|[1-9][0-9]{0,4}', (t) => t === undefined || (Number(t) <= 65535 && `"${t}"`))),
}

/** A timestamp, to canonical UTC (exact to the nanosecond; any offset, lenient separators). */
export const time: Field<string> = {
  empty: () => ZERO_TIME,
  fix(value, pointer, ctx) {
    if (typeof value !== 'string') {
      ctx.wrongType(pointer, 'string', value)
      return ZERO_TIME
    }
    if (TIME_RE.test(value)) return value
    const result = canonicalTime(value, { lenient: true })
    // Defensive: never write a time the strict profile's pattern would reject.
    if (result.ok && TIME_RE.test(result.value)) return result.value
    const reason = result.ok ? `'${result.value}' is outside what the canonical form can hold` : result.reason
    ctx.error('bad_timestamp', pointer, reason, { expected: 'an RFC 3339 time such as 2023-01-02T03:04:05+02:00', found: value })
    return ZERO_TIME
  },
  canonical: (value) => typeof value === 'string' && TIME_RE.test(value),
  pattern: literal(`"${inner(TIME_CANONICAL)}"`),
  // Other times made of the characters of RFC 3339 (offsets, separators, fraction digits).
  lenient: either(
    literal(`"${inner(TIME_CANONICAL)}"`),
    checked('"[-+0-9:.TtZz ]{1,64}"', (t) => {
      if (t === undefined) return true
      const value = t.slice(1, -1)
      if (TIME_RE.test(value)) return true
      const result = canonicalTime(value, { lenient: true })
      return result.ok && TIME_RE.test(result.value) && `"${result.value}"`
    }),
  ),
}

/** A 64-hex fingerprint (or empty), lower-cased. */
export const fingerprint: Field<string> = {
  empty: () => '',
  fix(value, pointer, ctx) {
    if (typeof value !== 'string') {
      ctx.wrongType(pointer, 'string', value)
      return ''
    }
    if (LENIENT_FINGERPRINT_RE.test(value)) return value.toLowerCase()
    ctx.error('bad_fingerprint', pointer, `${show(value)} is not 64 hexadecimal characters`, {
      expected: '64 hexadecimal characters, or empty',
      found: value,
    })
    return ''
  },
  canonical: (value) => typeof value === 'string' && FINGERPRINT_RE.test(value),
  pattern: literal(`"${inner(FINGERPRINT)}"`),
  lenient: either(literal(`"${inner(FINGERPRINT)}"`), join(['"', checked('[0-9a-fA-F]{64}', (t) => t === undefined || t.toLowerCase()), '"'])),
}
