/** dnsx (ProjectDiscovery) JSON Lines, `-json`: one minimal `service` event per A and AAAA answer. */
import { hasAny, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapDnsx } from './map.js'

/** Answers and what dnsx says about the query (its `status_code` is a DNS word such as `NOERROR`). */
const ANSWERS = ['a', 'aaaa', 'cname', 'resolver', 'all', 'ns', 'mx', 'txt', 'ptr', 'soa', 'srv', 'caa', 'axfr']

/** The queried `host` with answers or a DNS status; nothing of a prober, a crawler or subfinder. */
export const claimsDnsx = (r: Json) =>
  isText(r, 'host') &&
  (hasAny(r, ...ANSWERS) || (isText(r, 'status_code') && /^[A-Z]+$/.test(r.status_code as string))) &&
  !hasAny(r, 'url', 'port', 'template-id', 'input', 'source', 'sources', 'request', 'event_type', 'probe_status')

/** `--from dnsx`. */
export const dnsx = recordConverter({
  name: 'dnsx',
  tool: 'dnsx',
  description: 'dnsx JSON Lines (-json): one minimal service event per A and AAAA answer',
  claims: claimsDnsx,
  detect: (head) => detectBy(head, claimsDnsx, (text) => hasMembers(text, 'host') && !/"(?:url|port|template-id|input)"\s*:/.test(text) && /"(?:resolver|a|aaaa|cname|status_code|all)"\s*:/.test(text)),
  map: mapDnsx,
})
