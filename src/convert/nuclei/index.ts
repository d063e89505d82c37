/** nuclei (ProjectDiscovery) findings, `-jsonl` or `-json-export` (one array): one `leak` event each. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapNuclei } from './map.js'

/** `--from nuclei`. */
export const nuclei = recordConverter({
  name: 'nuclei',
  tool: 'nuclei',
  description: 'nuclei findings, JSON Lines (-jsonl) or one JSON array (-json-export): one leak event each',
  documents: true,
  detect(head) {
    const text = jsonHead(head)
    return text !== undefined && (hasMembers(text, 'template-id') || hasMembers(text, 'matched-at') || hasMembers(text, 'templateID'))
  },
  map: mapNuclei,
})
