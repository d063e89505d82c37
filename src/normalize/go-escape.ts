/**
 * `--escape go`: the string escapes Go's `encoding/json` writes by default, applied to the
 * compact JSON text JSON.stringify wrote (docs/specification.md, "The bytes the original tools
 * write"): `<`, `>`, `&`, U+2028, U+2029 as `\u003c` …; backspace and form feed as `\u0008`
 * and `\u000c` (Go before 1.22, which the original's builds use); a lone surrogate, which no
 * UTF-8 can hold and Go decodes as U+FFFD, as U+FFFD. Everything else is the same in both.
 * In compact JSON these characters occur only inside strings, so the text is rewritten
 * without being parsed.
 */

// Any backslash starts an escape, which is consumed whole (`\\` included), so an escaped
// backslash followed by `b` is never mistaken for `\b`. JSON.stringify escapes a surrogate
// only when it is alone.
const TOKENS = /[<>&\u2028\u2029]|\\(?:ud[89a-f][0-9a-f]{2}|[^u]|u)/g
const ANY = /[<>&\u2028\u2029]|\\[bfu]/

const REPLACE: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  '\\b': '\\u0008',
  '\\f': '\\u000c',
}

function replace(token: string): string {
  const out = REPLACE[token]
  if (out !== undefined) return out
  return token.length === 6 ? '\ufffd' : token // `\udXXX`: a lone surrogate
}

/** `text` (compact JSON as JSON.stringify writes it) with Go's escapes; the same string when none apply. */
export function goEscape(text: string): string {
  return ANY.test(text) ? text.replace(TOKENS, replace) : text
}

/** True when goEscape would change nothing. */
export const goEscaped = (text: string): boolean => !ANY.test(text)
