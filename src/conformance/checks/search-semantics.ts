/**
 * What search results mean, judged with the query engine as the oracle, from queries built
 * out of events the server already returned (page 0 of `*`):
 * - search-results-match: every result of a generated query satisfies it (and has the scope's type),
 *   and the query sent in the shapes LeakIX's clients build (search-shapes.ts) gets the same page;
 * - search-finds-known: a query an event satisfies, narrowed to it by its fingerprint and address, finds it;
 * - search-excludes: `-(q)` returns no event that satisfies q.
 */
import fc from 'fast-check'
import { queryFor } from '../gen/query.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { plural, problemAt } from './lib.js'
import { clientShapes } from './search-shapes.js'
import { eventKey, firstPages, oracle, type SearchScope, satisfies, searchAbsent, searchPage, searchSample } from './search-lib.js'
import type { Event } from '../../schema/index.js'

const SPEC = "LeakIX's API: The query language; docs/search.md"
const NEEDS_STATE = 'results must depend on the query'

/** The sample, or why the check cannot judge anything. */
async function sampleOr(ctx: SuiteContext): Promise<{ scope: SearchScope; event: Event }[] | string> {
  const absent = await searchAbsent(ctx)
  if (absent !== null) return absent
  const sample = await searchSample(ctx)
  return sample.length > 0 ? sample : 'the server returned no valid event for q=* in either scope: no query to build'
}

/** A generated query (from the sample's events, service fields only: valid in both scopes) with a scope. */
const generated = (sample: { scope: SearchScope; event: Event }[]) =>
  fc.nat(sample.length - 1).chain((i) => queryFor([sample[i]!.event], 'service').map((q) => ({ scope: sample[i]!.scope, q })))

export const searchResultsMatch: Check = {
  id: 'search-results-match',
  description: 'Every event of page 0 of a generated query (built from events the server returned) satisfies the query as the engine reads it, and has the scope’s event_type; the query sent as LeakIX’s clients send it (form-encoded, `+ term`, `events.` names) gets the same page',
  spec: SPEC,
  needsState: NEEDS_STATE,
  async run(ctx) {
    const sample = await sampleOr(ctx)
    if (typeof sample === 'string') return skip(sample)
    let judged = 0
    let results = 0
    const result = await ctx.property('search-results-match', generated(sample), async ({ scope, q }) => {
      const query = oracle(q, scope)
      if (query === null) return undefined
      const page = await searchPage(ctx, scope, q, 0)
      // A refusal is the server's reading of its language; a 5xx is no-5xx's to judge.
      if (!page.ok) return undefined
      judged++
      results += page.events.length
      const wrong = page.events.findIndex((e) => !satisfies(query, e))
      if (wrong !== -1) return problemAt(page.response, `scope ${scope}, q=${JSON.stringify(q)}: result /${wrong} does not satisfy the query (or is not a ${scope} event)`)
      const keys = page.events.map(eventKey).join('\n')
      for (const shape of clientShapes(query)) {
        const response = await ctx.get(shape.path(scope, 0))
        const body = response.status === 200 ? ctx.json(response) : undefined
        const same = Array.isArray(body) && body.map((e) => eventKey(e as never)).join('\n') === keys
        if (!same) return problemAt(response, `scope ${scope}, q=${JSON.stringify(q)} ${shape.name} (${shape.path(scope, 0)}): answered ${response.status} ${Array.isArray(body) ? `with ${body.length} event(s)` : ''}, not the ${page.events.length} event(s) of the canonical text`)
      }
      return undefined
    })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    if (judged === 0) return skip('the server answered none of the generated queries with a page')
    return pass(`${plural(judged, 'query', 'queries')}, ${plural(results, 'result')}`)
  },
}

export const searchFindsKnown: Check = {
  id: 'search-finds-known',
  description: 'A query an event the server returned satisfies, narrowed to it by its fingerprint and address, finds that event within the first pages',
  spec: SPEC,
  needsState: NEEDS_STATE,
  async run(ctx) {
    const sample = await sampleOr(ctx)
    if (typeof sample === 'string') return skip(sample)
    let found = 0
    const target = fc.nat(sample.length - 1).chain((i) => queryFor([sample[i]!.event], 'service').map((q) => ({ at: i, q })))
    const result = await ctx.property('search-finds-known', target, async ({ at, q }) => {
      const { scope, event } = sample[at]!
      const narrow = [event.event_fingerprint === '' ? '' : `+l9fp:${event.event_fingerprint}`, event.ip === '' ? '' : `+ip:${event.ip}`].filter((t) => t !== '')
      const extra = oracle(q, scope)
      const text = [...narrow, ...(extra !== null && satisfies(extra, event as never) ? [`+(${q})`] : [])].join(' ') || '*'
      const query = oracle(text, scope)
      if (query === null || !satisfies(query, event as never)) return undefined
      const key = eventKey(event as never)
      const { pages, ended } = await firstPages(ctx, scope, text)
      const last = pages[pages.length - 1]!
      // A refusal is the server's reading of its language (a 5xx is no-5xx's); a 200 that is not a page is wrong.
      if (!last.ok) return last.response.status === 200 ? problemAt(last.response, `scope ${scope}, q=${JSON.stringify(text)}: ${last.why}`) : undefined
      if (pages.some((p) => p.ok && p.events.some((e) => eventKey(e) === key))) {
        found++
        return undefined
      }
      // Not in the first pages of many matches: nothing to conclude.
      if (!ended) return undefined
      return problemAt(pages[0]!.response, `scope ${scope}, q=${JSON.stringify(text)}: the event it was built from (${event.ip}, ${event.event_source}, ${event.time}) is in none of its ${pages.length - 1} page(s)`)
    })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    if (found === 0) return skip('no generated query could be judged')
    return pass(plural(found, 'event') + ' found again')
  },
}

export const searchExcludes: Check = {
  id: 'search-excludes',
  description: 'A `-` term excludes: no event of the first two pages of `-(q)` satisfies q, for q built from events the server returned',
  spec: SPEC,
  needsState: NEEDS_STATE,
  async run(ctx) {
    const sample = await sampleOr(ctx)
    if (typeof sample === 'string') return skip(sample)
    let judged = 0
    const result = await ctx.property('search-excludes', generated(sample), async ({ scope, q }): Promise<Problem | undefined> => {
      const inner = oracle(q, scope)
      const text = `-(${q})`
      if (inner === null || oracle(text, scope) === null) return undefined
      const { pages } = await firstPages(ctx, scope, text, 2)
      for (const page of pages) {
        if (!page.ok) return undefined
        const wrong = page.events.findIndex((e) => satisfies(inner, e))
        if (wrong !== -1) return problemAt(page.response, `scope ${scope}, q=${JSON.stringify(text)}: result /${wrong} satisfies ${JSON.stringify(q)}, which the query excludes`)
      }
      judged++
      return undefined
    })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    if (judged === 0) return skip('no generated query could be judged')
    return pass(plural(judged, 'query', 'queries'))
  },
}
