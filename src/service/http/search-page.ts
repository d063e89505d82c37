/**
 * GET /search for a browser: what the search box sent. An address, `ip:port`, a URL or a domain
 * name is a redirect (303) to its page (search-box.ts); anything else is a query of the search
 * language, answered with a results page: the store's search called directly (scope `leak` or
 * `service`, newest first, PAGE_SIZE a page, `page` from 0), each row linking to its host page.
 * A query that does not parse is a 400 page showing where (the query kept in the box).
 * Independent of the JSON search API: the same store call, the same paging.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parseQuery, type Query, QueryError } from '../../query/index.js'
import { parseFacets } from '../../query/facets.js'
import { SearchLimitError } from '../store/index.js'
import type { Box } from '../web/render.js'
import { renderResults } from '../web/render.js'
import { facetViews, isScope, MAX_PAGE, PAGE_FACETS, PAGE_SIZE, type ResultsView, resultRow, type ShownError } from '../web/results-view.js'
import { boxTarget } from '../web/search-box.js'
import type { Caller, ServiceContext } from './context.js'
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
    let found: Uint8Array[]
    try {
      found = await ctx.store.search(parsed, { offset: page * PAGE_SIZE, limit: PAGE_SIZE + 1 })
    } catch (error) {
      if (!(error instanceof SearchLimitError)) throw error
      const message = `This query would read too many stored events for one page: add a selective term (a plugin, a port, an address or range, a host name, a country, a time range).`
      return sendHtml(req, res, 400, renderResults({ ...view, error: { message, before: target.text, term: '', after: '', position: 0 } }, apiPath))
    }
    view.rows = found.slice(0, PAGE_SIZE).map(resultRow)
    view.more = found.length > PAGE_SIZE
    // The total and the facets: the store's count (GET /search/count's), bounded as a search is.
    try {
      const counted = await ctx.store.count(parsed, { facets: parseFacets(PAGE_FACETS[scope], scope) })
      view.total = counted.total
      view.facets = facetViews(counted, target.text, parsed)
    } catch (error) {
      if (!(error instanceof SearchLimitError)) throw error
      view.uncounted = 'this query is too broad to count in one request (add a selective term to see the total and the facets).'
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
