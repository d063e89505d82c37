/**
 * Regular expressions shared by the schema, the validators and the normalisers.
 * They are written as JSON-Schema-compatible sources (ECMA 262 without flags) so the
 * generated schema files give the same verdicts in any validator.
 */

// A calendar date that exists: month lengths and Gregorian leap years, so that
// `2023-02-30` or `1900-02-29` fail in every validator without a format plug-in.
const LEAP_YEAR = '(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)'
const DATE =
  '(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  `|${LEAP_YEAR}-02-29)`
const CLOCK = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d'

/** Canonical time: UTC `Z`, 0–9 fraction digits, no trailing zero in the fraction. */
export const TIME_CANONICAL = `^${DATE}T${CLOCK}(?:\\.\\d{0,8}[1-9])?Z$`

/** Any RFC 3339 date-time: `Z` or `±hh:mm`, any fraction; `t`/`z`/space accepted (lenient). */
export const TIME_LENIENT = `^${DATE}[Tt ]${CLOCK}(?:\\.\\d{1,9})?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$`

/** 64 lower-case hex characters, or empty where the value is absent. */
export const FINGERPRINT = '^(?:[0-9a-f]{64})?$'
/** Lenient fingerprint: either case. */
export const FINGERPRINT_LENIENT = '^(?:[0-9a-fA-F]{64})?$'

/** Decimal port 0–65535 without leading zeros, or empty. */
export const PORT = '^(?:0|[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])?$'
/** Lenient port string: the same range, leading zeros and surrounding blanks allowed. */
export const PORT_LENIENT = '^\\s*0*(?:0|[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])?\\s*$'

/** A JSON string that holds an integer (lenient `asn`, `status`, …). */
export const INTEGER_STRING = '^\\s*[+-]?\\d+\\s*$'
/** A JSON string that holds a decimal number (lenient lat/lon written by the Python port). */
export const NUMBER_STRING = '^\\s*[+-]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?\\s*$'

/** Subdomain `last_seen`: UTC with exactly three fraction digits. */
export const TIME_MILLIS = `^${DATE}T${CLOCK}\\.\\d{3}Z$`
