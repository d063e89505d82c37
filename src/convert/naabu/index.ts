/** naabu (ProjectDiscovery) JSON Lines output, `-json`: one minimal `service` event per open port. */
import { hasAny, isNumber, isText } from '../common/claims.js'
import { detectBy, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapNaabu } from './map.js'

/**
 * `{ip, port (a number), host?, protocol?, tls?, cdn?, timestamp?, mac_address?}`: an address
 * and a numeric port, and none of the members that name another tool's record (tlsx and
 * httpx write the port as a string; sx names its scan; masscan its record type).
 */
export const claimsNaabu = (r: Json) =>
  isText(r, 'ip') &&
  isNumber(r, 'port') &&
  !hasAny(r, 'scan', 'url', 'input', 'template-id', 'rec_type', 'data', '_shodan', 'services', 'request', 'status_code', 'ports', 'saddr', 'probe_status', 'tls_version', 'cipher', 'source', 'sources', 'a', 'aaaa', 'event_type', 'ip_str')

/** `--from naabu`. */
export const naabu = recordConverter({
  name: 'naabu',
  tool: 'naabu',
  description: 'naabu JSON Lines (-json): one service event per open port',
  claims: claimsNaabu,
  detect: (head) => detectBy(head, claimsNaabu),
  map: mapNaabu,
})
