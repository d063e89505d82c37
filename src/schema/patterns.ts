/**
 * Regular expressions shared by the schema, the validators and the normalisers.
 * They are written as JSON-Schema-compatible sources (ECMA 262 without flags) and kept to
 * the part every common engine reads alike: `[0-9]`, not `\d` (Unicode digits elsewhere),
 * no `\s`, no look-around (RE2 has none), printable ASCII only. One difference would remain:
 * `$` in Python's `re` also matches before a final `\n`, and in Java's before a final line
 * terminator (`\r`, `\r\n`, U+0085, U+2028, U+2029), and neither engine can be told otherwise
 * from inside a pattern that RE2 and Rust also read. So every pattern in the schema documents
 * travels with NOT_PRINTABLE (json-schema.ts adds `"not": {"pattern": NOT_PRINTABLE}`): a string
 * holding any character outside printable ASCII is refused in every engine, and under ECMA-262,
 * where these patterns only match printable ASCII anyway, it changes no verdict.
 */

/** Matches a string holding any character outside printable ASCII (space to `~`). */
export const NOT_PRINTABLE = '[^ -~]'

// A calendar date that exists: month lengths and Gregorian leap years, so that
// `2023-02-30` or `1900-02-29` fail in every validator without a format plug-in.
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[048]|[2468][048]|[13579][26])00)'
const DATE =
  '(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))' +
  `|${LEAP_YEAR}-02-29)`
const CLOCK = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]'

/** Canonical time: UTC `Z`, 0–9 fraction digits, no trailing zero in the fraction. */
export const TIME_CANONICAL = `^${DATE}T${CLOCK}(?:\\.[0-9]{0,8}[1-9])?Z$`

/** Any RFC 3339 date-time: `Z` or `±hh:mm`, any fraction; `t`/`z`/space accepted (lenient). */
export const TIME_LENIENT = `^${DATE}[Tt ]${CLOCK}(?:\\.[0-9]{1,9})?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$`

/** 64 lower-case hex characters, or empty where the value is absent. */
export const FINGERPRINT = '^(?:[0-9a-f]{64})?$'
/** Lenient fingerprint: either case. */
export const FINGERPRINT_LENIENT = '^(?:[0-9a-fA-F]{64})?$'

/** Decimal port 0–65535 without leading zeros, or empty. */
export const PORT = '^(?:0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?$'
/** Lenient port string: the same range, leading zeros allowed. */
export const PORT_LENIENT = '^0*(?:0|[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])?$'

/**
 * Standard base64 (RFC 4648 section 4: `A-Z a-z 0-9 + /`, padded with `=`), as Go's encoding/json
 * writes and reads a `[]byte` (`service.credentials.raw`); empty is no bytes.
 */
export const BASE64 = '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'

/** A JSON string that holds an integer (lenient `asn`, `status`, …). */
export const INTEGER_STRING = '^[+-]?[0-9]+$'
/**
 * A JSON string that holds a yes/no answer (lenient booleans of the protocol objects): `true`,
 * `yes`, `1` or `false`, `no`, `0`, in lower case, capitalised or upper case.
 */
export const BOOLEAN_STRING = '^(?:true|True|TRUE|yes|Yes|YES|1|false|False|FALSE|no|No|NO|0)$'
/** A JSON string that holds a decimal number (lenient lat/lon written by the Python port). */
export const NUMBER_STRING = '^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$'

/** Subdomain `last_seen`: UTC with exactly three fraction digits. */
export const TIME_MILLIS = `^${DATE}T${CLOCK}\\.[0-9]{3}Z$`

/**
 * Whether every string the ECMA-262 `pattern` can match is printable ASCII, by a conservative
 * reading of its source: printable ASCII text, no `.`, no negated class, and no escape but
 * `\d` and escaped punctuation. Where it holds, the NOT_PRINTABLE guard changes no verdict.
 */
export function matchesPrintableOnly(pattern: string): boolean {
  if (!/^[ -~]*$/.test(pattern)) return false
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      const next = pattern[++i] ?? ''
      if (next !== 'd' && !/^[.\\\-+/$^()[\]{}|?*]$/.test(next)) return false
    } else if (inClass) {
      if (c === ']') inClass = false
    } else if (c === '[') {
      if (pattern[i + 1] === '^') return false
      inClass = true
    } else if (c === '.') return false
  }
  return true
}
