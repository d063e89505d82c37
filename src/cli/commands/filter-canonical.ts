/**
 * `filter`'s short way for a line that is already canonical: one pass of the normaliser's
 * canonical pattern, with a capture around each member the query reads (query/reads.ts), and
 * only those members parsed; the query is then evaluated on them. Canonical text is what
 * normalising gives back unchanged, so the long way (parse, normalise, evaluate:
 * filter-record.ts) would judge the same values; the one thing normalising can still change is
 * an empty `event_fingerprint` (filter computes it), so such a line takes the long way when the
 * query reads the fingerprint. Anything else it cannot vouch for takes the long way too.
 */
import { canonicalMembers } from '../../normalize/canonical-members.js'
import { matches, membersRead, type Query } from '../../query/index.js'

/** The verdict on a line of text: true or false when canonical, undefined for the long way. */
export type CanonicalJudge = (text: string) => boolean | undefined

/** A judge of canonical lines for `query` (building it compiles the event's pattern: once per query). */
export function canonicalJudge(query: Query): CanonicalJudge {
  const names = membersRead(query)
  const read = canonicalMembers(names)
  const fingerprint = names.includes('event_fingerprint')
  return (text) => {
    const event = read(text)
    if (event === null || (fingerprint && event.event_fingerprint === '')) return undefined
    return matches(query, event)
  }
}
