/**
 * The nesting bound every reader and normaliser applies. JSON.parse itself copes with deep
 * input, but what comes after it (normalising, validating, JSON.stringify) recurses, and a
 * record nested tens of thousands of levels deep would overflow the stack. Such a record is
 * refused with `too_deep` before anything recurses over it; the records around it go on.
 */
import type { Issue } from '../validate/issue.js'

/**
 * Deepest nesting of arrays and objects accepted in one record (`{}` is depth 1). An event
 * document needs 4; the deepest tool output we convert (ZGrab2) stays under 20.
 */
export const MAX_DEPTH = 128

const OPEN_BRACE = 0x7b
const OPEN_BRACKET = 0x5b
const CLOSE_BRACE = 0x7d
const CLOSE_BRACKET = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Counts `{` and `[` with native indexOf, stopping as soon as the count passes `max`. */
function bracketsExceed(text: string, max: number): boolean {
  let count = 0
  for (const c of ['{', '[']) {
    for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) if (++count > max) return true
  }
  return false
}

/**
 * True when the JSON text nests arrays and objects deeper than `max`. Cheap on ordinary
 * records: a text with at most `max` opening brackets in all cannot be too deep, and that
 * is counted natively; only the others are scanned character by character (strings skipped).
 */
export function textTooDeep(text: string, max = MAX_DEPTH): boolean {
  if (text.length <= max || !bracketsExceed(text, max)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === BACKSLASH) i++
      else if (c === QUOTE) inString = false
    } else if (c === QUOTE) inString = true
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--
  }
  return false
}

/** True when a parsed value nests deeper than `max` (recursion itself bounded by `max`). */
export function valueTooDeep(value: unknown, max = MAX_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false
  if (max <= 0) return true
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (valueTooDeep(v, max - 1)) return true
  return false
}

/** The issue reported for a record over the bound. */
export function tooDeep(max = MAX_DEPTH): Issue {
  return {
    code: 'too_deep',
    pointer: '',
    message: `nested more than ${max} arrays or objects deep; refused (the format needs far fewer)`,
    expected: `at most ${max} levels of nesting`,
  }
}
