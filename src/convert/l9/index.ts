/** Event documents themselves (JSON Lines, a JSON array, or lookup results): read, normalised, passed on. */
import { hasMembers, jsonHead, recordConverter } from '../common/records.js'
import { mapL9 } from './map.js'

/** `--from l9`. */
export const l9 = recordConverter({
  name: 'l9',
  tool: 'l9',
  description: 'event documents (JSON Lines, a JSON array or lookup results), normalised and passed on unchanged',
  documents: true,
  finished: true,
  detect(head) {
    const text = jsonHead(head)
    return text !== undefined && (hasMembers(text, 'event_type') || hasMembers(text, 'event_source') || hasMembers(text, 'Services') || hasMembers(text, 'Leaks'))
  },
  map: mapL9,
})
