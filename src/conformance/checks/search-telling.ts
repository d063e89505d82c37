/**
 * Search judged with queries that can tell (telling.ts):
 * - search-partition: in each scope, a search read to its end (`*`, else `+ip:` of a known
 *   address) is split exactly by a term some of its events satisfy: every page of `q +term` and
 *   `q -term` holds events satisfying its query, and together they hold the search's events,
 *   each once (a line added to or dropped from an answer shows);
 * - search-order: pages come newest first (by `time`), within a page and from one page to the next.
 */
import { type Check, fail, pass, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { plural, problemAt } from './lib.js'
import { firstPages, oracle, SCOPES, type SearchScope, satisfies, searchAbsent, type PageAnswer } from './search-lib.js'
import { firstOutOfOrder, halves, partitionProblem, tellingTerm } from './telling.js'

/** Pages read of one search at most. */
const MAX_PAGES = 5

type Obj = Record<string, unknown>

/** Every event of a search, when it ended (an empty page) within MAX_PAGES. */
async function wholeSearch(ctx: SuiteContext, scope: SearchScope, q: string): Promise<{ events: Obj[]; pages: PageAnswer[] } | undefined> {
  const { pages, ended } = await firstPages(ctx, scope, q, MAX_PAGES)
  if (!ended) return undefined
  return { events: pages.flatMap((p) => (p.ok ? p.events : [])), pages }
}

export const searchPartition: Check = {
  id: 'search-partition',
  description: 'In each scope, a search read to its end is split exactly by a term some of its events satisfy: q +term and q -term hold only events satisfying them, together each of the search’s events once',
  spec: "LeakIX's API: The query language; docs/search.md (pages neither overlap nor skip)",
  needsState: 'results must depend on the query',
  async run(ctx) {
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    let judged = 0
    for (const scope of SCOPES) {
      // `*`, then an address with several events (of `*`'s, else a known one): a split of
      // `+ip:X` also tells whether `+` is read as required.
      const all = await wholeSearch(ctx, scope, '*')
      const everything = all?.events ?? []
      const bases = ['*', ...busiest(everything).map((ip) => `+ip:${ip}`), ...ctx.known.ips.slice(0, 2).map((ip) => `+ip:${ip}`)]
      let splits = 0
      for (const base of [...new Set(bases)]) {
        if (splits === 2) break
        const whole = await wholeSearch(ctx, scope, base)
        const term = whole && tellingTerm(whole.events, scope, everything)
        if (!whole || term === undefined) continue
        const [plusQ, minusQ] = halves(base, term)
        const plus = await wholeSearch(ctx, scope, plusQ)
        const minus = await wholeSearch(ctx, scope, minusQ)
        if (!plus || !minus) continue
        for (const [half, q] of [[plus, plusQ], [minus, minusQ]] as const) {
          const query = oracle(q, scope)
          if (query === null) continue
          for (const page of half.pages) {
            if (!page.ok) continue
            const wrong = page.events.findIndex((e) => !satisfies(query, e))
            if (wrong !== -1) return fail(problemAt(page.response, `scope ${scope}, q=${JSON.stringify(q)}: result /${wrong} does not satisfy the query`), q)
          }
        }
        const problem = partitionProblem(whole.events, plus.events, minus.events, [`q=${JSON.stringify(base)}`, `q=${JSON.stringify(plusQ)}`, `q=${JSON.stringify(minusQ)}`])
        if (problem) return fail(problemAt(whole.pages[0]!.response, `scope ${scope}: ${problem}`), term)
        judged++
        splits++
      }
    }
    if (judged === 0) return skip('no search ended within its first pages with a term that splits it')
    return pass(plural(judged, 'split'))
  },
}

/** The addresses holding two events or more, most first (at most two). */
function busiest(events: readonly Obj[]): string[] {
  const counts = new Map<string, number>()
  for (const e of events) if (typeof e.ip === 'string' && e.ip !== '') counts.set(e.ip, (counts.get(e.ip) ?? 0) + 1)
  return [...counts].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).slice(0, 2).map(([ip]) => ip)
}

export const searchOrder: Check = {
  id: 'search-order',
  description: 'Search results come newest first (by time), within a page and from one page to the next (q=* in both scopes)',
  spec: 'docs/search.md: The route (newest first)',
  needsState: 'results must be the server’s events in its order',
  async run(ctx) {
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    let judged = 0
    for (const scope of SCOPES) {
      const { pages } = await firstPages(ctx, scope, '*', MAX_PAGES)
      const ok = pages.filter((p): p is Extract<PageAnswer, { ok: true }> => p.ok)
      const events = ok.flatMap((p) => p.events)
      const at = firstOutOfOrder(events)
      if (at !== -1) {
        const page = ok.find((_, i) => ok.slice(0, i + 1).reduce((n, p) => n + p.events.length, 0) > at)!
        return fail(problemAt(page.response, `scope ${scope}, q=*: result ${at} (time ${String(events[at]!.time)}) is newer than result ${at - 1} (${String(events[at - 1]!.time)}), counted across pages`))
      }
      judged += events.length
    }
    if (judged < 2) return skip('the searches returned fewer than two events to compare')
    return pass(plural(judged, 'result'))
  },
}
