/**
 * How text is compared, the same in the evaluator and in the SQL the PostgreSQL store runs:
 * - a **word** is a run of ASCII letters and digits and of any character above U+007F; every
 *   other character separates words; words compare with ASCII letters folded to lower case
 *   (other letters as written: PostgreSQL's case folding depends on the server's locale);
 * - a **phrase** is words that follow each other in one value, with only separators between;
 * - before any comparison, NUL and unpaired surrogates in a value become U+FFFD (PostgreSQL
 *   text cannot hold them), so both stores see the same string.
 */

/** `s` with ASCII letters in lower case, nothing else changed. */
export function asciiLower(s: string): string {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s
}

/** `s` with ASCII letters in upper case, nothing else changed. */
export function asciiUpper(s: string): string {
  return /[a-z]/.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s
}

const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const HAS_UNSTORABLE = /[\0\ud800-\udfff]/

/** `s` with NUL and unpaired surrogates replaced by U+FFFD (what PostgreSQL can store). */
export function storable(s: string): string {
  return HAS_UNSTORABLE.test(s) ? s.replace(UNSTORABLE, '\ufffd') : s
}

const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128

/** The words of `s`, ASCII letters in lower case. */
export function wordsOf(s: string): string[] {
  const out: string[] = []
  let start = -1
  for (let i = 0; i <= s.length; i++) {
    const word = i < s.length && isWordUnit(s.charCodeAt(i))
    if (word && start === -1) start = i
    else if (!word && start !== -1) {
      out.push(asciiLower(s.slice(start, i)))
      start = -1
    }
  }
  return out
}

/** Separators, as a character class body (JavaScript). */
const SEP_JS = '[^0-9A-Za-z\\u0080-\\uffff]'

/**
 * A matcher of the phrase `words` (one word or more, from wordsOf) in a value: the value's
 * words include them, one after the other. Built as a regular expression of literal words
 * and separator runs, which V8 runs without backtracking trouble.
 */
export function phraseMatcher(words: readonly string[]): (value: string) => boolean {
  const body = words.map(escapeJs).join(`${SEP_JS}+`)
  const source = `(?:^|${SEP_JS})${body}(?:$|${SEP_JS})`
  // Words of ASCII letters and digits only: the `i` flag folds exactly the ASCII letters here, so
  // the value need not be lowered first (a copy of a long text per test). Without the `u` flag,
  // case folding never maps a character above U+007F to one below it (ECMAScript Canonicalize),
  // so neither the words nor the separator class match anything more or less. Other words
  // would also match other cases of their non-ASCII letters: those values are lowered as before.
  if (words.every((word) => ASCII_WORD.test(word))) {
    const folded = new RegExp(source, 'i')
    return (value) => folded.test(storable(value))
  }
  const re = new RegExp(source)
  return (value) => re.test(asciiLower(storable(value)))
}

const ASCII_WORD = /^[0-9a-z]+$/

const escapeJs = (word: string) => word.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`)

/** Separators, as a PostgreSQL regular expression (ARE) character class. */
const SEP_PG = '[^0-9A-Za-z\\u0080-\\U0010ffff]'

/**
 * The same phrase as a PostgreSQL regular expression, for `l9kit_lower(value) ~ pattern`:
 * every character outside ASCII letters and digits written as a `\u` escape.
 */
export function phrasePattern(words: readonly string[]): string {
  const body = words.map(escapePg).join(`${SEP_PG}+`)
  return `(^|${SEP_PG})${body}($|${SEP_PG})`
}

/** A word's characters for PostgreSQL: letters and digits as they are, others as code point escapes. */
function escapePg(word: string): string {
  let out = ''
  for (const ch of word) {
    const cp = ch.codePointAt(0)!
    out += isWordUnit(cp) && cp < 128 ? ch : codePointEscape(cp)
  }
  return out
}

/** `\uXXXX` or `\UXXXXXXXX`, as PostgreSQL regular expressions write a code point. */
export const codePointEscape = (cp: number) =>
  cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\U${cp.toString(16).padStart(8, '0')}`
