/** Broken: GET /search/count counts its facets over every event of the scope, not over the query's matches. */
import { facetCounts } from '../../../src/query/facets.js'
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['search-count']
export const start = () =>
  startFake({
    count: (matched, facets, events) => {
      const scope = matched[0]?.event_type ?? 'service'
      const all = events.filter((e) => e.event_type === scope)
      return { ...CORRECT.count(matched, [], events), facets: Object.fromEntries(facets.map(({ facet, limit }) => [facet.name, facetCounts(facet, all as never, limit)])) }
    },
  })
