/** Event documents themselves (JSON Lines, a JSON array, or lookup results): read, normalised, passed on. */
import { hasAny, isText } from '../common/claims.js'
import { detectBy, hasMembers, recordConverter } from '../common/records.js'
import type { Json } from '../common/values.js'
import { mapL9 } from './map.js'

/**
 * An event document names itself (`event_type`, `event_source`, `event_fingerprint`), or is a
 * lookup result (`Services`, `Leaks`). With `--from l9` any object is read as an event
 * document, which the format's one rule then judges (validate/event-rule.ts).
 */
export const claimsL9 = (r: Json) =>
  isText(r, 'event_type') || isText(r, 'event_source') || isText(r, 'event_fingerprint') || (hasAny(r, 'Services', 'Leaks') && Object.keys(r).every((k) => k === 'Services' || k === 'Leaks'))

/** `--from l9`. */
export const l9 = recordConverter({
  name: 'l9',
  tool: 'l9',
  description: 'event documents (JSON Lines, a JSON array or lookup results), normalised and passed on unchanged',
  finished: true,
  claims: claimsL9,
  detect: (head) => detectBy(head, claimsL9, (text) => hasMembers(text, 'event_type') || hasMembers(text, 'event_source') || hasMembers(text, 'Services') || hasMembers(text, 'Leaks')),
  map: mapL9,
})
