/**
 * What mapHttpx cannot make canonical by construction. Every other member it writes is
 * canonical as built: strings and lists of strings, booleans, a port from portText(), a
 * lower-case 64-hex fingerprint or '', de-duplicated transport and tags, modules only when
 * there are some, a header map of strings, certificate times from validityTime() (the zero
 * time or canonicalTime()'s result), an event time from eventTime() (the same, or else the
 * caller's `runStart`). Checked here: the ranges of the status and the AS number, and
 * `runStart` when the time is that.
 */
import type { Event } from '../../schema/index.js'
import type { ConvertContext } from '../types.js'
import { TIME_CANONICAL } from '../../schema/patterns.js'

const TIME_RE = new RegExp(TIME_CANONICAL)
const MAX_STATUS = 999
const MAX_ASN = 4294967295

/** True when mapHttpx's draft `e` is strict as it is (RecordFormat.canonical). */
export function httpxDraftCanonical(e: Event, ctx: ConvertContext): boolean {
  return e.http.status <= MAX_STATUS && e.network.asn <= MAX_ASN && (e.time !== ctx.runStart || TIME_RE.test(e.time))
}
