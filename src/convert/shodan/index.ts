/**
 * Shodan: banners as `shodan download` (gzip JSON Lines), `shodan parse` and the streaming API
 * write them, a host look-up object (`/shodan/host/{ip}`: host members and the banners in
 * `data[]`), or search results (`{"matches": [...]}`). One event per banner.
 */
import { recordDraftCanonical } from '../common/canonical.js'
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapShodan } from './map.js'

/** `--from shodan`. */
export const shodan = recordConverter({
  name: 'shodan',
  tool: 'shodan',
  description: 'Shodan banners (download .json.gz, parse, stream), host look-ups (data[]), search matches[]',
  documents: true,
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined) return false
    // A banner names its crawler module (`_shodan`) or pairs ip_str with Shodan's own members;
    // a host look-up has ip_str, ports and data; search results have matches.
    if (hasMembers(text, '_shodan')) return true
    if (hasMembers(text, 'ip_str') && /"(?:ports|isp|org|hostnames|asn|transport)"\s*:/.test(text)) return true
    if (hasMembers(text, 'matches') && hasMembers(text, 'ip_str')) return true
    // A bare banner: only Shodan writes `ip` as an integer beside its raw `data`.
    return /^\{"ip":[0-9]+,/.test(text) && hasMembers(text, 'port', 'data')
  },
  map: mapShodan,
  canonical: recordDraftCanonical,
})
