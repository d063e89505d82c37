/**
 * GET /search for a browser: what the search box sent. An address, `ip:port`, a URL or a domain
 * name is a redirect (303) to its page (search-box.ts); anything else is a query of the search
 * language, answered with a results page: the store's search called directly (scope `leak` or
 * `service`, newest first, PAGE_SIZE a page, `page` from 0 within the plan's page cap (403
 * beyond), each row linking to its host page. A query that does not parse is a 400 page showing
 * where (the query kept in the box); one too costly (its cost per event, or the plan's work) a 422
 * page. The JSON search API's bounded path (costly.ts): the same store call, the same paging.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseQuery, type Query, QueryError, readingOf } from '../../query/index.js'
import { parseFacets } from '../../query/facets.js'
import { SearchLimitError } from '../store/index.js'
import type { Box } from '../web/render.js'
import { renderResults } from '../web/render.js'
import { facetViews, isScope, MAX_PAGE, PAGE_FACETS, PAGE_SIZE, type ResultsView, resultRow, type ShownError } from '../web/results-view.js'
import { boxTarget } from '../web/search-box.js'
import type { Caller, ServiceContext } from './context.js'
import { closedSignal, runQuery, runSearch, type SearchRun } from './costly.js'
import { shown } from './reply.js'
import { sendHtml, sendHtmlError } from './send-html.js'

/** Query parameters of the search page. */
const SEARCH_QUERY = ['q', 'scope', 'page']

/** What the page needs from pages.ts (passed in, so the two files do not import each other). */
export interface SearchPageDeps {
  caller: Caller
  /** The pages' rate limit: false when it answered 429 (its box kept). */
  within: (caller: Caller, box: Box) => boolean
  guarded: (req: IncomingMessage, res: ServerResponse, handler: () => Promise<void>) => void
}

export function handleSearchPage(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, deps: SearchPageDeps): void {
  const query = searchParams(req)
  const q = query.get('q') ?? ''
  const scope = query.get('scope') ?? 'leak'
  const box: Box = { q, scope }
  const fail = (status: number, description: string) => sendHtmlError(req, res, status, description, undefined, box)
  deps.guarded(req, res, async () => {
    if (!deps.within(deps.caller, box)) return
    for (const name of query.keys()) {
      if (!SEARCH_QUERY.includes(name)) return fail(400, `The query parameter ${shown(name)} is not known here; this page takes ${SEARCH_QUERY.join(', ')}.`)
    }
    if (!isScope(scope)) return fail(400, `The query parameter scope=${JSON.stringify(scope)} is not a scope; use leak or service.`)
    const pageText = query.get('page') ?? '0'
    if (!/^\d{1,5}$/.test(pageText) || Number(pageText) > MAX_PAGE) {
      return fail(400, `The query parameter page=${JSON.stringify(pageText)} is not a page: pages run from 0 to ${MAX_PAGE} (${PAGE_SIZE} results each).`)
    }
    if (q.trim() === '') return fail(400, 'Type an IP address, a domain name, a URL, ip:port, or a query (for example +plugin:GitConfigHttpPlugin).')

    const target = boxTarget(q)
    if (target.kind === 'host') return redirect(res, `/host/${encodeURIComponent(target.ip)}${target.port === '' ? '' : `?port=${target.port}`}`)
    if (target.kind === 'domain') return redirect(res, `/domain/${encodeURIComponent(target.name)}`)

    const page = Number(pageText)
    const view: ResultsView = { q, scope, page, rows: [], more: false, error: null, total: null, uncounted: '', facets: [] }
    const apiPath = `/search?scope=${scope}&q=${encodeURIComponent(target.text)}&page=${page}`
    let parsed: Query
    try {
      parsed = parseQuery(target.text, { scope })
    } catch (error) {
      if (!(error instanceof QueryError)) throw error
      return sendHtml(req, res, 400, renderResults({ ...view, error: shownError(error, target.text) }, apiPath))
    }
    // How the query was read, where that may not be what was meant (never silently).
    view.notes = readingOf(parsed).notes.map((n) => `Position ${n.offset + 1}: ${n.message}.`)
    if (target.read !== undefined) view.notes.unshift(`\`${target.read}\` was searched as \`${target.text}\`.`)
    const cap = deps.caller.plan.searchPages
    if (cap !== null && page >= cap) {
      const allowed = cap === 0 ? `The ${deps.caller.plan.name} plan may not search.` : `The ${deps.caller.plan.name} plan may read result pages 0 to ${cap - 1}; page ${page} is beyond them.`
      return fail(403, `${allowed} Narrow the query to see other results.`)
    }
    const tooBroad = (message: string) => sendHtml(req, res, 422, renderResults({ ...view, error: { message, before: target.text, term: '', after: '', position: 0 } }, apiPath))
    // One signal for the page's two store reads (its search and its count): the client went away.
    const closed = closedSignal(res)
    let run: SearchRun
    try {
      run = await runSearch(ctx, deps.caller, parsed, { offset: page * PAGE_SIZE, limit: PAGE_SIZE + 1 }, closed)
    } catch (error) {
      if (!(error instanceof SearchLimitError)) throw error
      return tooBroad(`This query would read too many stored events for one page: add a selective term (a plugin, a port, an address or range, a host name, a country, a time range).`)
    }
    if (!run.ok && run.status === 422) return tooBroad(run.message)
    if (!run.ok) return fail(run.status, run.message)
    const found = run.items
    view.rows = found.slice(0, PAGE_SIZE).map(resultRow)
    view.more = found.length > PAGE_SIZE
    // The total and the facets: the store's count (GET /search/count's), on the same bounded path.
    const tooBroadToCount = 'this query is too broad to count in one request (add a selective term to see the total and the facets).'
    try {
      const facets = parseFacets(PAGE_FACETS[scope], scope)
      const counted = await runQuery(ctx, deps.caller, parsed, (options) => ctx.store.count(parsed, { facets }, options), closed)
      if (counted.ok) {
        view.total = counted.items.total
        view.facets = facetViews(counted.items, target.text, parsed)
      } else view.uncounted = counted.status === 429 ? 'the server is busy with other searches; reload to see the total and the facets.' : tooBroadToCount
    } catch (error) {
      if (!(error instanceof SearchLimitError)) throw error
      view.uncounted = tooBroadToCount
    }
    sendHtml(req, res, 200, renderResults(view, apiPath))
  })
}

/** The error with the query cut around its term, for the page to mark it. */
function shownError(error: QueryError, text: string): ShownError {
  const end = error.offset + error.length
  return { message: error.message, before: text.slice(0, error.offset), term: text.slice(error.offset, end), after: text.slice(end), position: error.offset + 1 }
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-cache' })
  res.end()
}

function searchParams(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '/'
  const at = url.indexOf('?')
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1))
}
