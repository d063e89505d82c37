/**
 * Event documents read back (for `--to hostport|url|human|csv`): each is normalised (lenient
 * input accepted) but otherwise left as it is: source, pipeline and fingerprint are kept.
 * A lookup result (`{"Services": […], "Leaks": […]}`) gives its events in order.
 */
import { normalize } from '../../normalize/index.js'
import type { Event } from '../../schema/index.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import type { Json } from '../common/values.js'

/** One event document (or lookup result) → its normalised event(s). */
export function mapL9(r: Json): Mapped {
  if (!('event_type' in r) && ('Services' in r || 'Leaks' in r)) {
    const out: (Event | Unconvertible)[] = []
    for (const list of ['Services', 'Leaks'] as const) {
      const docs = r[list]
      if (docs === null || docs === undefined) continue
      if (!Array.isArray(docs)) {
        out.push({ reason: `${list}: expected an array or null` })
        continue
      }
      docs.forEach((doc, i) => out.push(one(doc, `/${list}/${i}`)))
    }
    return out
  }
  return one(r, '')
}

function one(doc: unknown, prefix: string): Event | Unconvertible {
  const result = normalize(doc, { fingerprint: 'keep' })
  if (result.ok) return result.event
  return { reason: `not a valid event document: ${result.errors.map((e) => `${prefix}${e.pointer || (prefix ? '' : '/')}: ${e.message}`).join('; ')}` }
}
