/** katana (ProjectDiscovery) JSON Lines, `-jsonl`: one `service` event per crawled endpoint. */
import { hasAny } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import { type Json, obj } from '../common/values.js'
import { mapKatana } from './map.js'

/** `{request: {endpoint, …}, response: {…}}` (members in any order); not a nuclei finding. */
export const claimsKatana = (r: Json) => typeof obj(r.request)?.endpoint === 'string' && !hasAny(r, 'template-id', 'templateID', 'matched-at', 'event_type')

/** `--from katana`. */
export const katana = recordConverter({
  name: 'katana',
  tool: 'katana',
  description: 'katana JSON Lines (-jsonl): one service event per crawled endpoint (no ip: katana records none)',
  claims: claimsKatana,
  detect: (head) => detectBy(head, claimsKatana, (text) => hasMembers(text, 'request') && hasMembers(text, 'endpoint') && !hasMembers(text, 'template-id')),
  map: mapKatana,
})
