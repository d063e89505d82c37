/** subfinder (ProjectDiscovery) JSON Lines, `-oJ`: one minimal `service` event per subdomain found. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapSubfinder } from './map.js'

/** `--from subfinder`. */
export const subfinder = recordConverter({
  name: 'subfinder',
  tool: 'subfinder',
  description: 'subfinder JSON Lines (-oJ): one minimal service event per subdomain (no port)',
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined || !hasMembers(text, 'host')) return false
    // {host, input, source} (or sources[] with -cs); nothing of a prober or a resolver.
    return /"(?:source|sources)"\s*:/.test(text) && hasMembers(text, 'input') && !/"(?:url|port|a|aaaa|resolver|request|template-id)"\s*:/.test(text)
  },
  map: mapSubfinder,
})
