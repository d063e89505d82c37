/**
 * What the Shodan and Censys mappers cannot make canonical by construction (RecordFormat.canonical).
 * Every other member they write is canonical as built: strings and lists of strings, booleans,
 * a port from portText(), a lower-case 64-hex certificate fingerprint or '', transports and tags
 * kept distinct, modules only when there are some, a header map of strings, an event time from
 * eventTime() (canonicalTime()'s result, or else the caller's `runStart`).
 *
 * Checked here: integers read from the record (a JSON `-0` is an integer but not a canonical one;
 * the ranges of the status and the AS number), coordinates (`-0` again), names looked up in plain
 * objects (a cipher or key type named like an Object.prototype member finds no string),
 * certificate times, and `runStart` when the time is that.
 */
import { ZERO_TIME } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { TIME_CANONICAL } from '../../schema/patterns.js'
import type { ConvertContext } from '../types.js'

const TIME_RE = new RegExp(TIME_CANONICAL)
const MAX_STATUS = 999
const MAX_ASN = 4294967295

const count = (n: number, max = Number.MAX_SAFE_INTEGER) => Number.isSafeInteger(n) && n >= 0 && n <= max && !Object.is(n, -0)
const coordinate = (n: number) => typeof n === 'number' && !Object.is(n, -0)
const canonicalTime = (time: string) => time === ZERO_TIME || TIME_RE.test(time)

/** True when a Shodan or Censys draft `e` is strict as it is, so finishEvent may skip its check. */
export function recordDraftCanonical(e: Event, ctx: ConvertContext): boolean {
  const cert = e.ssl.certificate
  const location = e.geoip.location
  return (
    count(e.http.status, MAX_STATUS) &&
    count(e.http.length) &&
    count(e.network.asn, MAX_ASN) &&
    count(cert.key_size) &&
    count(e.ssh.version) &&
    coordinate(location.lat) &&
    coordinate(location.lon) &&
    typeof e.ssl.cypher_suite === 'string' &&
    typeof cert.key_algo === 'string' &&
    canonicalTime(cert.not_before) &&
    canonicalTime(cert.not_after) &&
    (e.time !== ctx.runStart || TIME_RE.test(e.time))
  )
}
