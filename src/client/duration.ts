/**
 * Go duration text (`time.ParseDuration`): the `x-limited-for` header of a 429.
 * Grammar: `[+-]` then `0`, or one or more `<number><unit>` where number is digits with an
 * optional fraction (`1.5`, `.5`, `5.`) and unit is ns, us, µs (U+00B5 or U+03BC), ms, s, m, h.
 * Values are exact: bigint nanoseconds, fractions truncated toward zero, int64 range as in Go.
 */

/** Nanoseconds per unit; `µs` is accepted as U+00B5 (micro sign) and U+03BC (Greek mu). */
export const GO_DURATION_UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n,
  '\u03bcs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
}

const MAX_INT64 = (1n << 63n) - 1n

export type DurationResult = { ok: true; nanoseconds: bigint } | { ok: false; reason: string }

const fail = (text: string, why: string): DurationResult => ({ ok: false, reason: `'${clip(text)}' is not a Go duration: ${why}` })
const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text)
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9'

/** Parses a Go duration such as `344.24ms`, `1m2.5s`, `500µs`; never throws. */
export function parseGoDuration(text: string): DurationResult {
  if (typeof text !== 'string') return { ok: false, reason: 'not a string' }
  let i = 0
  let negative = false
  if (text[0] === '+' || text[0] === '-') {
    negative = text[0] === '-'
    i = 1
  }
  const rest = text.slice(i)
  if (rest === '0') return { ok: true, nanoseconds: 0n }
  if (rest === '') return fail(text, 'empty')
  let total = 0n
  while (i < text.length) {
    const start = i
    while (isDigit(text[i])) i++
    const whole = text.slice(start, i)
    let fraction = ''
    if (text[i] === '.') {
      const from = ++i
      while (isDigit(text[i])) i++
      fraction = text.slice(from, i)
    }
    if (whole === '' && fraction === '') return fail(text, `expected a number at position ${start + 1}`)
    const unitStart = i
    while (i < text.length && text[i] !== '.' && !isDigit(text[i])) i++
    const unit = text.slice(unitStart, i)
    if (unit === '') return fail(text, `missing unit after '${text.slice(start, i)}' (ns, us, µs, ms, s, m, h)`)
    const scale = GO_DURATION_UNITS[unit]
    if (scale === undefined) return fail(text, `unknown unit '${clip(unit)}' (ns, us, µs, ms, s, m, h)`)
    total += BigInt(whole || '0') * scale
    if (fraction !== '') total += (BigInt(fraction) * scale) / 10n ** BigInt(fraction.length)
    if (total > MAX_INT64 + (negative ? 1n : 0n)) return fail(text, 'out of range (more than about 292 years)')
  }
  return { ok: true, nanoseconds: negative ? -total : total }
}

/**
 * A header value as fetch gives it, one character per byte (Latin-1), read as UTF-8 when its
 * bytes are UTF-8: Go's net/http sends `µs` as the bytes C2 B5, which arrive as `Âµs`. Anything
 * else (ASCII, a lone Latin-1 `µ`, bytes that are not UTF-8) is returned as it is.
 */
export function headerText(value: string): string {
  if (!/[\x80-\xff]/.test(value) || /[^\x00-\xff]/.test(value)) return value
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(value, (c) => c.charCodeAt(0)))
  } catch {
    return value
  }
}

/** `parseGoDuration` of an `x-limited-for` header as received: trimmed, its UTF-8 bytes decoded (headerText). */
export const parseDurationHeader = (value: string): DurationResult => parseGoDuration(headerText(value.trim()))

/** Whole milliseconds to wait for a duration in nanoseconds, rounded up (never less than asked). */
export function ceilMillis(nanoseconds: bigint): number {
  if (nanoseconds <= 0n) return 0
  return Number((nanoseconds + 999_999n) / 1_000_000n)
}
