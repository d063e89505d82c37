/**
 * The one rule for what an event document is, beyond its shape, that `validate` (both
 * profiles), `normalize`, `convert --from l9` and the service's ingest all apply (through
 * validate() and normalize(), which ingest's prepare() calls): a JSON object whose members are
 * not all unknown to the format. `{"foo": 1}` is not one: normalising it would keep nothing of
 * it and make an empty event, which the lenient profile (every member optional) would otherwise
 * accept. `{}` is the lenient form of the empty event (nothing of it is lost).
 */
import { event as EVENT_SKELETON } from './compiled/members.js'
import type { Issue } from './issue.js'
import { printable } from './printable.js'

const MEMBERS: ReadonlySet<string> = new Set(Object.keys((EVENT_SKELETON as { properties: object }).properties))

/**
 * Why an object is not an event document (members, none of them the format's), or undefined
 * when it may be one; non-objects are left to `not_object`.
 */
export function notAnEvent(doc: unknown): Issue | undefined {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined
  // A document names its members first (`event_type` in canonical order): one look, as a rule.
  for (const key in doc) if (MEMBERS.has(key) && Object.hasOwn(doc, key)) return undefined
  const names = Object.keys(doc)
  if (names.length === 0) return undefined
  const shown = `its members: ${names.slice(0, 5).map((n) => printable(n.length > 24 ? `${n.slice(0, 21)}...` : n)).join(', ')}${names.length > 5 ? ', …' : ''}`
  return {
    code: 'not_event',
    pointer: '',
    message: `not an event document: it has none of the format's members (event_type, ip, host, port, …; ${shown})`,
    expected: 'an object with event document members',
  }
}
