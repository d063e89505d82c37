/** nuclei (ProjectDiscovery) findings, `-jsonl` or `-json-export` (one array): one `leak` event each. */
import { hasAny, isObject, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapNuclei } from './map.js'

/** A finding names its template (`template-id`, `templateID` in early releases), or has `matched-at` beside the template's `info`. */
export const claimsNuclei = (r: Json) => hasAny(r, 'template-id', 'templateID') || (isObject(r, 'info') && (isText(r, 'matched-at') || isText(r, 'template')))

/** `--from nuclei`. */
export const nuclei = recordConverter({
  name: 'nuclei',
  tool: 'nuclei',
  description: 'nuclei findings, JSON Lines (-jsonl) or one JSON array (-json-export): one leak event each',
  claims: claimsNuclei,
  detect: (head) => detectBy(head, claimsNuclei, (text) => hasMembers(text, 'template-id') || hasMembers(text, 'matched-at') || hasMembers(text, 'templateID')),
  map: mapNuclei,
})
