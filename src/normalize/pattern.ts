/**
 * Recognising canonical text without parsing it. Each normaliser gives a regular-expression
 * source for exactly the JSON text JSON.stringify writes for its canonical values; the shape
 * concatenates them into one anchored expression for the whole event, which V8 compiles to
 * machine code. What a regular expression cannot say (number spelling, uniqueness, header
 * names) is captured and checked after the match. A "no" is always safe — the caller then
 * normalises the long way — so patterns may be stricter than canonical, never looser.
 */
import type { Options } from './context.js'

/**
 * Checks the text of one capture group (undefined when it sat in an alternative not taken):
 * true when it is canonical, false when it is not. In a rewrite pattern (see `rewrite`) a
 * check may instead return the canonical text that replaces the captured one.
 */
export type Check = (captured: string | undefined, options: Options) => boolean | string

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

/** `source` as a capture group (lenient text) always written as `text` instead. */
export const replaced = (source: string, text: string): Pattern => checked(source, (t) => t === undefined || text)

/** Alternatives: the first one that lets the whole text match is taken. */
export const either = (...parts: Pattern[]): Pattern => join(['(?:', ...parts.flatMap((p, i) => (i === 0 ? [p] : ['|', p])), ')'])

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

/** End (index after the closing quote) of the canonical JSON string starting at `start`. */
export function stringEnd(text: string, start: number): number {
  let at = text.indexOf('"', start + 1)
  for (;;) {
    let slashes = 0
    while (text.charCodeAt(at - 1 - slashes) === 0x5c) slashes++
    if (slashes % 2 === 0) return at + 1
    at = text.indexOf('"', at + 1)
  }
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
    for (let i = 0; i < checks.length; i++) if (checks[i]!(m[i + 1], options) !== true) return false
    return true
  }
}

/** One replaced capture of a rewrite: the text from `start` to `end` (UTF-16 units) becomes `text`. */
export interface Edit {
  start: number
  end: number
  text: string
}

/**
 * The edits that make `text` canonical, by a pattern whose checks may return replacement
 * text: every such capture, in order ([] when none is replaced), or undefined when the text
 * does not match or a check says no. Captures that are replaced must not overlap (they never
 * nest in the shapes' patterns). A writer holding the text's bytes can copy them around the
 * edits instead of encoding the rewritten text again (cli/parallel/output.ts).
 */
export function rewriteEdits(pattern: Pattern): (text: string, options: Options) => Edit[] | undefined {
  // `d`: the match reports where each capture sits, so it can be replaced in place.
  const re = new RegExp(`^${pattern.source}$`, 'd')
  const { checks } = pattern
  return (text, options) => {
    const m = re.exec(text)
    if (m === null) return undefined
    const edits: Edit[] = []
    let at = 0
    for (let i = 0; i < checks.length; i++) {
      const result = checks[i]!(m[i + 1], options)
      if (result === true) continue
      if (result === false) return undefined
      const [start, end] = m.indices![i + 1]!
      if (start < at) return undefined
      edits.push({ start, end, text: result })
      at = end
    }
    return edits
  }
}

/** `text` with `edits` (from rewriteEdits) applied; `text` itself when there are none. */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return text
  let out = ''
  let at = 0
  for (const { start, end, text: replacement } of edits) {
    out += text.slice(at, start) + replacement
    at = end
  }
  return out + text.slice(at)
}

/**
 * The whole-text rewrite of a pattern whose checks may return replacement text: the text
 * with every such capture replaced, or undefined when it does not match or a check says no.
 */
export function rewrite(pattern: Pattern): (text: string, options: Options) => string | undefined {
  const edits = rewriteEdits(pattern)
  return (text, options) => {
    const found = edits(text, options)
    return found && applyEdits(text, found)
  }
}
