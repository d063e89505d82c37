/**
 * Shodan: banners as `shodan download` (gzip JSON Lines), `shodan parse` and the streaming API
 * write them, a host look-up object (`/shodan/host/{ip}`: host members and the banners in
 * `data[]`), or search results (`{"matches": [...]}`). One event per banner.
 */
import { recordDraftCanonical } from '../common/canonical.js'
import { hasAny, isList, isNumber, isObject, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapShodan } from './map.js'

/** Members Shodan gives a banner or a host besides its address. */
const SHODAN = ['port', 'data', 'hostnames', 'org', 'isp', 'asn', 'transport', 'ports', 'location', 'domains', 'last_update']

/**
 * A banner names its crawler module (`_shodan`), or pairs `ip_str` with Shodan's own members
 * (a host look-up too, its banners in `data[]`); search results hold `matches[]`; a bare
 * banner has Shodan's integer `ip` beside its raw `data` text.
 */
export const claimsShodan = (r: Json) =>
  isObject(r, '_shodan') ||
  (isText(r, 'ip_str') && hasAny(r, ...SHODAN)) ||
  (isList(r, 'matches') && hasAny(r, 'total', 'facets')) ||
  (isNumber(r, 'ip') && isNumber(r, 'port') && isText(r, 'data'))

/** `--from shodan`. */
export const shodan = recordConverter({
  name: 'shodan',
  tool: 'shodan',
  description: 'Shodan banners (download .json.gz, parse, stream), host look-ups (data[]), search matches[]',
  claims: claimsShodan,
  detect: (head) =>
    detectBy(head, claimsShodan, (text) => hasMembers(text, '_shodan') || (hasMembers(text, 'ip_str') && /"(?:ports|isp|org|hostnames|asn|transport)"\s*:/.test(text)) || (hasMembers(text, 'matches') && hasMembers(text, 'ip_str'))),
  map: mapShodan,
  canonical: recordDraftCanonical,
})
