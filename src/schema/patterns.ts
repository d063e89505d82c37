/**
 * Regular expressions shared by the schema, the validators and the normalisers.
 * They are written as JSON-Schema-compatible sources (ECMA 262 without flags) and kept to
 * the part every common engine reads alike: `[0-9]`, not `\d` (Unicode digits elsewhere),
 * no `\s`, no look-around (RE2 has none). One difference remains: Python's `re` lets `$`
 * match before a final newline; docs/format.md tells Python users how to anchor.
 */

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

/** A JSON string that holds an integer (lenient `asn`, `status`, …). */
export const INTEGER_STRING = '^[+-]?[0-9]+$'
/** A JSON string that holds a decimal number (lenient lat/lon written by the Python port). */
export const NUMBER_STRING = '^[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?$'

/** Subdomain `last_seen`: UTC with exactly three fraction digits. */
export const TIME_MILLIS = `^${DATE}T${CLOCK}\\.[0-9]{3}Z$`
