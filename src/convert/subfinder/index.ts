/** subfinder (ProjectDiscovery) JSON Lines, `-oJ`: one minimal `service` event per subdomain found. */
import { hasAny, isList, isText } from '../common/claims.js'
import { detectBy, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapSubfinder } from './map.js'

/** `{host, input, source}` (or `sources[]` with -cs); nothing of a prober or a resolver. */
export const claimsSubfinder = (r: Json) =>
  isText(r, 'host') &&
  (isText(r, 'source') || isList(r, 'sources')) &&
  !hasAny(r, 'url', 'port', 'a', 'aaaa', 'cname', 'resolver', 'request', 'template-id', 'status_code', 'event_type')

/** `--from subfinder`. */
export const subfinder = recordConverter({
  name: 'subfinder',
  tool: 'subfinder',
  description: 'subfinder JSON Lines (-oJ): one minimal service event per subdomain (no port)',
  claims: claimsSubfinder,
  detect: (head) => detectBy(head, claimsSubfinder),
  map: mapSubfinder,
})
