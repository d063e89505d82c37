/** Broken: GET /search ignores `-` terms (an excluded clause, at any depth, excludes nothing). */
import { holds, type Cond } from '../../../src/query/index.js'
import { startFake } from '../fake/server.js'

/** The condition with every `not` list emptied. */
const withoutNot = (cond: Cond): Cond => (cond.kind === 'bool' ? { kind: 'bool', must: cond.must.map(withoutNot), should: cond.should.map(withoutNot), not: [] } : cond)

// The split by a telling term (search-partition) sees it too: -term is read as nothing.
export const meant = ['search-excludes', 'search-partition', 'search-results-match']
export const start = () =>
  startFake({ searchMatches: (query, events) => events.filter((e) => e.event_type === query.scope && holds(withoutNot(query.cond), e as never, undefined)) })
