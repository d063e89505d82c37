/**
 * Pages of one search do not overlap: no event comes back on two pages of `*` (both scopes)
 * or of a query naming a plugin the server returned, read from page 0 until an empty page or
 * MAX_PAGES (under the smallest plan's page cap of the reference service).
 */
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt } from './lib.js'
import { eventKey, firstPages, SCOPES, type SearchScope, searchAbsent, searchSample } from './search-lib.js'

const MAX_PAGES = 4

export const searchPagesDisjoint: Check = {
  id: 'search-pages-disjoint',
  description: `Pages 0 to ${MAX_PAGES - 1} of a search (q=* in both scopes, and +plugin:NAME) hold no event twice`,
  spec: 'docs/search.md (pages neither overlap nor skip)',
  needsState: 'pages must differ',
  async run(ctx) {
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    const sample = await searchSample(ctx)
    const queries: [SearchScope, string][] = SCOPES.map((scope) => [scope, '*'])
    for (const { scope, event } of sample.slice(0, 2)) if (/^[A-Za-z0-9_.-]+$/.test(event.event_source)) queries.push([scope, `+plugin:${event.event_source}`])
    let compared = 0
    for (const [scope, q] of queries) {
      const { pages } = await firstPages(ctx, scope, q, MAX_PAGES)
      const seen = new Map<string, number>()
      for (let n = 0; n < pages.length; n++) {
        const page = pages[n]!
        if (!page.ok) break
        for (const e of page.events) {
          const first = seen.get(eventKey(e))
          if (first !== undefined && first !== n) return fail(problemAt(page.response, `scope ${scope}, q=${JSON.stringify(q)}: an event of page ${first} comes back on page ${n} (${String(e.ip)}, ${String(e.event_source)}, ${String(e.time)})`))
          seen.set(eventKey(e), n)
        }
      }
      if (pages.filter((p) => p.ok && p.events.length > 0).length >= 2) compared++
    }
    if (compared === 0) return skip('no search filled more than one page: nothing to compare')
    return pass(plural(compared, 'search', 'searches') + ' of several pages')
  },
}
