/** ZGrab2 JSON Lines output: one line per target, one event per http/tls/ssh module result. */
import { hasAny, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import { type Json, obj } from '../common/values.js'
import { mapZgrab2 } from './map.js'

/** `{ip?, domain?, data: {module: {status, protocol?, result?, …}}}`: module results under `data`. */
export const claimsZgrab2 = (r: Json) => {
  const data = obj(r.data)
  if (!data || !(isText(r, 'ip') || isText(r, 'domain')) || hasAny(r, '_shodan', 'ip_str', 'rec_type', 'event_type')) return false
  const modules = Object.values(data)
  return modules.length > 0 && modules.every((m) => typeof obj(m)?.status === 'string')
}

/** `--from zgrab2`. */
export const zgrab2 = recordConverter({
  name: 'zgrab2',
  tool: 'zgrab2',
  description: 'ZGrab2 JSON Lines: http, tls/https and ssh module results',
  claims: claimsZgrab2,
  detect: (head) => detectBy(head, claimsZgrab2, (text) => hasMembers(text, 'data') && /"data"\s*:\s*\{\s*"[^"]+"\s*:\s*\{/.test(text) && /"(?:status|result)"\s*:/.test(text)),
  map: mapZgrab2,
})
