/** katana (ProjectDiscovery) JSON Lines, `-jsonl`: one `service` event per crawled endpoint. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapKatana } from './map.js'

/** `--from katana`. */
export const katana = recordConverter({
  name: 'katana',
  tool: 'katana',
  description: 'katana JSON Lines (-jsonl): one service event per crawled endpoint (no ip: katana records none)',
  detect(head) {
    const text = jsonHead(head)
    // {request: {endpoint, …}, response: {…}}, members in any order; not a nuclei finding.
    return text !== undefined && hasMembers(text, 'request') && hasMembers(text, 'endpoint') && !hasMembers(text, 'template-id')
  },
  map: mapKatana,
})
