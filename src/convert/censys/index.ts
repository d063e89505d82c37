/**
 * Censys Search 2.0 hosts: a host object (`censys view`), the API's answer wrapping it
 * (`{"code": 200, "status": "OK", "result": {…}}`), or search hits (`censys search`: one JSON
 * array). One event per service.
 */
import { recordDraftCanonical } from '../common/canonical.js'
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapCensys } from './map.js'

/** `--from censys`. */
export const censys = recordConverter({
  name: 'censys',
  tool: 'censys',
  description: 'Censys v2 hosts: one host, the API answer {code,status,result}, search hits (array)',
  documents: true,
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined) return false
    if (hasMembers(text, 'code', 'status', 'result')) return /"(?:services|hits|ip)"\s*:/.test(text)
    // No other tool's record pairs `ip` with a `services` list (a lookup result's is `Services`).
    return hasMembers(text, 'ip', 'services')
  },
  map: mapCensys,
  canonical: recordDraftCanonical,
})
