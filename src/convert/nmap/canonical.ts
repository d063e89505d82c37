/**
 * What portEvent cannot make canonical by construction. Every other member it writes is
 * canonical as built: strings, booleans, a port of 1–5 digits up to 65535 without leading
 * zeros, transport from distinct layer names, modules only when there are some, a header map
 * of strings under lower-case names, a key size and an SSH version that are safe integers, a
 * lower-case 64-hex fingerprint or '', the host's time from formatSeconds()/formatTime(),
 * protocol objects of strings, booleans, string lists and count()'s safe integers only.
 * Checked here: names looked up in plain objects (a service or key type named like an
 * Object.prototype member finds no string), certificate times, and `runStart` when the
 * time is that.
 */
import { ZERO_TIME } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { TIME_CANONICAL } from '../../schema/patterns.js'
import type { ConvertContext } from '../types.js'

const TIME_RE = new RegExp(TIME_CANONICAL)

const canonicalTime = (time: string) => time === ZERO_TIME || TIME_RE.test(time)

/** True when portEvent's draft `e` is strict as it is, so finishEvent may skip its check. */
export function nmapDraftCanonical(e: Event, ctx: ConvertContext): boolean {
  const cert = e.ssl.certificate
  return (
    typeof e.protocol === 'string' &&
    typeof cert.key_algo === 'string' &&
    canonicalTime(cert.not_before) &&
    canonicalTime(cert.not_after) &&
    (e.time !== ctx.runStart || TIME_RE.test(e.time))
  )
}
