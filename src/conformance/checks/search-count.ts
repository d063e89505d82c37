/**
 * GET /search/count (an extension of the reference service, docs/search.md "Counting and
 * facets"): for `*` and queries built from the server's own events, in both scopes, the count's
 * total is the number of events the search's pages hold, and each facet's values are what
 * those events have (the facet table of src/query/facets.ts counts them), when the pages could
 * be read to their end; otherwise the total is at least what they held. Skipped when the server
 * has no such route (LeakIX's API) or no search.
 */
import { countPath } from '../../client/index.js'
import { type FacetRequest, facetCounts, parseFacets } from '../../query/facets.js'
import { validateDocument } from '../../validate/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { plural, problemAt } from './lib.js'
import { eventKey, firstPages, type Obj, SCOPES, searchAbsent, searchSample, type SearchScope } from './search-lib.js'

/** Pages read to compare a count with (the count is exact only when they reach the end). */
const PAGES = 10
/** Facets asked with every count. */
const FACETS: Record<SearchScope, string> = { service: 'port,plugin,country:3,transport', leak: 'severity,plugin:2,port,country' }

/** Why the check cannot run, or null. */
async function countAbsent(ctx: SuiteContext): Promise<string | null> {
  const absent = await searchAbsent(ctx)
  if (absent !== null) return absent
  const response = await ctx.get(countPath('*', 'service'))
  if ([404, 405, 501].includes(response.status)) return `the server has no GET /search/count (answered ${response.status}): it is an extension of the reference service`
  return null
}

export const searchCount: Check = {
  id: 'search-count',
  description: 'GET /search/count gives as total the number of events the pages of GET /search hold for the same query, and facets counted over exactly those events',
  spec: 'docs/search.md: Counting and facets (an extension)',
  needsState: 'the count must agree with what the search returns',
  async run(ctx) {
    const absent = await countAbsent(ctx)
    if (absent !== null) return skip(absent)
    const sample = await searchSample(ctx)
    const queries: [SearchScope, string][] = SCOPES.map((scope) => [scope, '*'])
    for (const { scope, event } of sample.slice(0, 4)) {
      if (event.port !== '') queries.push([scope, `+port:${event.port}`])
      if (event.event_source !== '') queries.push([scope, `+plugin:"${event.event_source.replace(/[\\"]/g, (c) => `\\${c}`)}" -port:1`])
    }
    let exact = 0
    for (const [scope, q] of queries) {
      const facets: FacetRequest[] = parseFacets(FACETS[scope], scope)
      const response = await ctx.get(countPath(q, scope, FACETS[scope]))
      const where = `scope ${scope}, q=${JSON.stringify(q)}`
      if (response.status !== 200) return fail(problemAt(response, `${where}: answered ${response.status}, not 200`))
      const body = ctx.json(response) as { total?: number; facets?: Record<string, { value: string; count: number }[]> }
      const shape = validateDocument('search-count', body)
      if (!shape.ok) return fail(problemAt(response, `${where}: ${shape.errors[0]!.pointer || '(body)'}: ${shape.errors[0]!.message}`))
      const { pages, ended } = await firstPages(ctx, scope, q, PAGES)
      const bad = pages.find((p) => !p.ok)
      if (bad !== undefined) continue // the search checks judge the pages themselves
      // Each event once: pages that overlap are search-pages-disjoint's to judge.
      const events: Obj[] = [...new Map(pages.flatMap((p) => (p.ok ? p.events : [])).map((e) => [eventKey(e), e])).values()]
      const total = body.total!
      if (!ended) {
        if (total < events.length) return fail(problemAt(response, `${where}: total ${total}, but the first ${PAGES} pages of GET /search hold ${events.length} events`))
        continue
      }
      if (total !== events.length) return fail(problemAt(response, `${where}: total ${total}, but the pages of GET /search hold ${events.length} events`))
      for (const { facet, limit } of facets) {
        const expected = facetCounts(facet, events, limit)
        const got = body.facets?.[facet.name]
        if (JSON.stringify(got) !== JSON.stringify(expected)) {
          return fail(problemAt(response, `${where}: facet ${facet.name} is ${JSON.stringify(got)}; the events of the pages give ${JSON.stringify(expected)}`))
        }
      }
      exact++
    }
    return pass(`${plural(queries.length, 'count')}, ${exact} compared exactly with every page`)
  },
}
