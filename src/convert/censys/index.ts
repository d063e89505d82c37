/**
 * Censys hosts: a Search 2.0 host object (`censys view`), the API's answer wrapping it
 * (`{"code": 200, "status": "OK", "result": {…}}`), search hits (`censys search`: one JSON
 * array), or a legacy (v1) host (`{"ip", "protocols": ["443/https", …], "443": {…}}`). One
 * event per service.
 */
import { recordDraftCanonical } from '../common/canonical.js'
import { hasAny, isList, isNumber, isObject, isText } from '../common/claims.js'
import { detectBy, hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { type Json, obj } from '../common/values.js'
import { mapCensys } from './map.js'

/** A host's own members besides `ip` and `services`. */
const HOST = ['last_updated_at', 'autonomous_system', 'location', 'dns', 'operating_system', 'labels', 'whois']

/**
 * A host: `ip` with `services` (entries with a `port`, or an empty list beside the host's own
 * members); a legacy host: `ip` with `protocols` such as `443/https`; an API answer: `code`,
 * `status` and a `result` (or an `error`).
 */
export const claimsCensys = (r: Json) => {
  if (isNumber(r, 'code') && isText(r, 'status')) return isObject(r, 'result') || isText(r, 'error')
  if (!isText(r, 'ip') || hasAny(r, '_shodan', 'ip_str', 'event_type')) return false
  if (isList(r, 'protocols')) return (r.protocols as unknown[]).some((p) => typeof p === 'string' && /^\d+\/\S+$/.test(p))
  if (!Object.hasOwn(r, 'services')) return false
  const services = r.services
  return (Array.isArray(services) && services.some((s) => obj(s)?.port !== undefined)) || hasAny(r, ...HOST)
}

/** `--from censys`. */
export const censys = recordConverter({
  name: 'censys',
  tool: 'censys',
  description: 'Censys hosts: v2 host, the API answer {code,status,result}, search hits (array), legacy v1 host',
  claims: claimsCensys,
  detect: (head) =>
    detectBy(head, claimsCensys, (text) => {
      if (hasMembers(text, 'code', 'status', 'result')) return /"(?:services|hits|ip)"\s*:/.test(text)
      // A record longer than the head: `ip` and `services` (or v1 `protocols`) among its first members.
      return (jsonHead(text) ?? '').length > 0 && hasMembers(text, 'ip') && (hasMembers(text, 'services') || /"protocols"\s*:\s*\[\s*"\d+\//.test(text))
    }),
  map: mapCensys,
  canonical: recordDraftCanonical,
})
