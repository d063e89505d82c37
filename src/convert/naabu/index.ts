/** naabu (ProjectDiscovery) JSON Lines output, `-json`: one minimal `service` event per open port. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapNaabu } from './map.js'

/** `--from naabu`. */
export const naabu = recordConverter({
  name: 'naabu',
  tool: 'naabu',
  description: 'naabu JSON Lines (-json): one service event per open port',
  detect(head) {
    const text = jsonHead(head)
    if (text === undefined || !hasMembers(text, 'port')) return false
    // Not masscan's -oD (rec_type) or -oJ (ports), not httpx or nuclei (url, template-id).
    return hasMembers(text, 'ip') && !/"(?:rec_type|ports|url|template-id|data)"\s*:/.test(text)
  },
  map: mapNaabu,
})
