/**
 * Recognising canonical text without parsing it. Each normaliser gives a regular-expression
 * source for exactly the JSON text JSON.stringify writes for its canonical values; the shape
 * concatenates them into one anchored expression for the whole event, which V8 compiles to
 * machine code. What a regular expression cannot say (number spelling, uniqueness, header
 * names) is captured and checked after the match. A "no" is always safe — the caller then
 * normalises the long way — so patterns may be stricter than canonical, never looser.
 */
import type { Options } from './context.js'

/** Checks the text of one capture group (undefined when it sat in an alternative not taken). */
export type Check = (captured: string | undefined, options: Options) => boolean

export interface Pattern {
  source: string
  /** One check per capture group of `source`, in order. */
  checks: Check[]
}

// A string as JSON.stringify writes it: no escape but \" \\ \b \f \n \r \t and \u00xx for the
// other control characters; surrogates only in pairs (escaped lone ones are declined).
// Written "unrolled" (plain run, then escape + plain run, …) so matching stays linear.
const PLAIN = '[^"\\\\\\x00-\\x1f\\ud800-\\udfff]*'
const SPECIAL = '(?:\\\\["\\\\bfnrt]|\\\\u00(?:0[0-7bef]|1[0-9a-f])|[\\ud800-\\udbff][\\udc00-\\udfff])'
export const STRING = `"${PLAIN}(?:${SPECIAL}${PLAIN})*"`

export const literal = (source: string): Pattern => ({ source, checks: [] })

/** `source` as a capture group whose text must also pass `check`. */
export const checked = (source: string, check: Check): Pattern => ({ source: `(${source})`, checks: [check] })

/** Concatenation of patterns and plain regex text. */
export function join(parts: (Pattern | string)[]): Pattern {
  let source = ''
  const checks: Check[] = []
  for (const part of parts) {
    if (typeof part === 'string') source += part
    else {
      source += part.source
      checks.push(...part.checks)
    }
  }
  return { source, checks }
}

/** `[]` or `[item,…]` (`nonEmpty`: at least one). Items must not capture: only the last repetition would be seen. */
export function list(item: Pattern, nonEmpty = false): string {
  if (item.checks.length > 0) throw new Error('list items cannot carry checks')
  const items = `${item.source}(?:,${item.source})*`
  return nonEmpty ? `\\[${items}\\]` : `\\[(?:${items})?\\]`
}

/** Regex source of a pattern written `^…$` (anchors removed). */
export const inner = (anchored: string) => anchored.replace(/^\^/, '').replace(/\$$/, '')

/** The whole-text test of a pattern. */
export function compile(pattern: Pattern): (text: string, options: Options) => boolean {
  const re = new RegExp(`^${pattern.source}$`)
  const { checks } = pattern
  return (text, options) => {
    const m = re.exec(text)
    if (m === null) return false
    for (let i = 0; i < checks.length; i++) if (!checks[i]!(m[i + 1], options)) return false
    return true
  }
}
