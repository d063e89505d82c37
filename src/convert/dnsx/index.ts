/** dnsx (ProjectDiscovery) JSON Lines, `-json`: one minimal `service` event per A and AAAA answer. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapDnsx } from './map.js'

/** `--from dnsx`. */
export const dnsx = recordConverter({
  name: 'dnsx',
  tool: 'dnsx',
  description: 'dnsx JSON Lines (-json): one minimal service event per A and AAAA answer',
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined || !hasMembers(text, 'host')) return false
    if (/"(?:url|port|template-id|input)"\s*:/.test(text)) return false
    return /"(?:resolver|a|aaaa|cname|status_code|all)"\s*:/.test(text)
  },
  map: mapDnsx,
})
