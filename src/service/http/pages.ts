/**
 * The web view over HTTP: the host and domain pages (for a client that prefers text/html), the
 * index page, the search page (search-page.ts), the stylesheet and the script. Pages follow the
 * anonymous plan, or the plan of the key the configuration's `web_key` names (its subdomain
 * cap; an `api-key` header is not read here), but never spend the API's rate limit: they take
 * from a budget of their own per client address (PAGE_RATE, docs/service.md "Plans and
 * errors"). Checks run in the lookups' order: route, method, rate limit (429), parameter (400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Event, SEVERITIES } from '../../schema/index.js'
import type { Caller, ServiceContext } from './context.js'
import { parseQuery } from '../../query/index.js'
import { nowInstant } from '../store/index.js'
import { type RateRule } from '../ratelimit/index.js'
import { failed, sendError, sendJson, shown } from './reply.js'
import { badEncoding, decodeParam, notDomain, notIp } from './route.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import { formatMillis } from '../ratelimit/index.js'
import { DOMAIN_COLUMNS, domainView } from '../web/domain-view.js'
import { FINDING_COLUMNS, hostView } from '../web/host-view.js'
import { prefersHtml } from './negotiate.js'
import { type Box, type PluginRow, renderDomain, renderHost, renderIndex, type SeverityCount } from '../web/render.js'
import { resultRow } from '../web/results-view.js'
import { SCRIPT, SCRIPT_GZIP, SCRIPT_HASH, SCRIPT_PATH } from '../web/script.js'
import { handleSearchPage } from './search-page.js'
import { eventKey, severityRank } from '../web/rows.js'
import { apiPathOf, acceptsGzip, sendHtml, sendHtmlError } from './send-html.js'
import { parseSort } from '../web/sort.js'
import { STYLESHEET, STYLESHEET_GZIP, STYLESHEET_HASH, STYLESHEET_PATH } from '../web/stylesheet.js'

/** Query parameters the host and domain pages take (`port`: the host page only). */
const PAGE_QUERY = { host: ['sort', 'dir', 'port'], domain: ['sort', 'dir'] }
/**
 * The budget of pages per client address, beside (not out of) the API's rate limit: a person
 * opening a few pages at once, or clicking through results, is not a script. Sorting a table
 * costs nothing (it happens in the page); pages, search results and a row's raw JSON each take
 * one; the stylesheet and the script none. A plan whose API rate is higher keeps its own.
 */
export const PAGE_RATE: RateRule = { rate: 2, burst: 30 }
/** Rows of the index page's latest findings, and plugins in its table. */
const INDEX_LATEST = 10
const INDEX_PLUGINS = 10
/** `/raw/host/:ip/:key` and `/raw/domain/:domain/:key`: one event's JSON (a row's "Full event (JSON)" link). */
const RAW = /^\/raw\/(host|domain)\/([^/]*)\/([^/]*)$/
const EVENT_KEY = /^[0-9a-f]{16}$/

/** True when a lookup route should answer with a page rather than JSON. */
export function wantsPage(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && prefersHtml(req.headers.accept)
}

/** GET /host/:ip or /domain/:domain for a browser. */
export function handlePage(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, route: 'host' | 'domain', raw: string): void {
  const param = decodeParam(raw)
  // The search box of an error page (429 too) keeps the page's subject as typed in the path.
  const box: Box = { q: param ?? raw, scope: 'leak' }
  const fail = (status: number, description: string) => sendHtmlError(req, res, status, description, undefined, box)
  guarded(req, res, async () => {
    const caller = pageCaller(ctx, req)
    if (!withinPageLimit(ctx, caller, req, res, box)) return
    if (param === null) return fail(400, badEncoding(raw))
    if (param === '') return fail(400, `The path needs ${route === 'host' ? 'an IP address' : 'a domain name'} after the last '/'.`)
    const canonical = route === 'host' ? canonicalIp(param) : canonicalDomain(param)
    if (canonical === null) return fail(400, route === 'host' ? notIp(param) : notDomain(param))
    const query = queryOf(req)
    const problem = checkQuery(query, PAGE_QUERY[route])
    if (problem !== null) return fail(400, problem)
    const sort = parseSort(query, route === 'host' ? FINDING_COLUMNS.map(([k]) => k) : DOMAIN_COLUMNS.map(([k]) => k))
    if (typeof sort === 'string') return fail(400, sort)
    const port = query.get('port') ?? ''
    if (port !== '' && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) return fail(400, `The query parameter port=${JSON.stringify(port)} is not a port number (0 to 65535).`)

    const seen = route === 'host' ? await ctx.store.hostSeen(canonical) : await ctx.store.domainSeen(canonical)
    if (seen === null) return fail(400, route === 'host' ? notIp(param) : notDomain(param))
    if (route === 'host') return sendHtml(req, res, 200, renderHost(hostView(canonical, seen, sort, port === '' ? '' : String(Number(port))), apiPathOf(req)))
    const entries = (await ctx.store.subdomains(canonical)) ?? []
    const view = domainView(canonical, seen, entries, caller.plan.subdomains, caller.plan.name, sort)
    sendHtml(req, res, 200, renderDomain(view, apiPathOf(req)))
  })
}

/**
 * The web routes that are not lookups: `/` and `/search` (for a browser) and the stylesheet.
 * Returns false when the request is none of these (the caller answers 404 as before).
 */
export function handleWeb(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): boolean {
  const path = apiPathOf(req)
  const readOnly = req.method === 'GET' || req.method === 'HEAD'
  if (path === STYLESHEET_PATH && readOnly) {
    sendStatic(req, res, 'text/css; charset=utf-8', STYLESHEET, STYLESHEET_GZIP, STYLESHEET_HASH)
    return true
  }
  if (path === SCRIPT_PATH && readOnly) {
    sendStatic(req, res, 'text/javascript; charset=utf-8', SCRIPT, SCRIPT_GZIP, SCRIPT_HASH)
    return true
  }
  const raw = readOnly ? RAW.exec(path) : null
  if (raw !== null) {
    handleRaw(ctx, req, res, raw[1] as 'host' | 'domain', raw[2]!, raw[3]!)
    return true
  }
  if (!readOnly || !prefersHtml(req.headers.accept)) return false
  if (path === '/') {
    guarded(req, res, async () => {
      if (!withinPageLimit(ctx, pageCaller(ctx, req), req, res)) return
      const counts = await ctx.store.severityCounts()
      const latest = (await ctx.store.search(parseQuery('*', { scope: 'leak' }), { offset: 0, limit: INDEX_LATEST })).map(resultRow)
      const plugins = await ctx.store.plugins(nowInstant())
      sendHtml(
        req,
        res,
        200,
        renderIndex({
          counts: severityList(counts),
          leaks: Object.values(counts).reduce((a, b) => a + b, 0),
          events: ctx.store.size,
          latest,
          plugins: await topPlugins(ctx, plugins),
          pluginsKnown: plugins.length,
        }),
      )
    })
    return true
  }
  if (path === '/search') return searchPage(ctx, req, res)
  return false
}

/**
 * GET /search for a browser (accept prefers text/html): the search page; true when answered.
 * The server asks this before matching API routes, so the JSON search API may have the same
 * address: API clients never get here.
 */
export function searchPage(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse): boolean {
  if (apiPathOf(req) !== '/search' || !wantsPage(req)) return false
  handleSearchPage(ctx, req, res, { caller: pageCaller(ctx, req), within: (caller, box) => withinPageLimit(ctx, caller, req, res, box), guarded })
  return true
}

/**
 * The plugins with events in the last 7 days, most first (ties: the last 24 hours, the last
 * hour, the name), at most INDEX_PLUGINS; each with the search that lists its events, in the
 * scope where it has any (a plugin writes leaks or services: one indexed look per plugin shown).
 */
async function topPlugins(ctx: ServiceContext, all: readonly { name: string; count1h: number; count24h: number; count7d: number }[]): Promise<PluginRow[]> {
  const top = all
    .filter((p) => p.count7d > 0)
    .sort((a, b) => b.count7d - a.count7d || b.count24h - a.count24h || b.count1h - a.count1h || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, INDEX_PLUGINS)
  const rows: PluginRow[] = []
  for (const p of top) {
    const query = `+plugin:"${p.name.replace(/[\\"]/g, (c) => `\\${c}`)}"`
    let scope: 'leak' | 'service' = 'leak'
    try {
      const leaks = await ctx.store.search(parseQuery(query, { scope: 'leak' }), { offset: 0, limit: 1 })
      if (leaks.length === 0) scope = 'service'
    } catch {
      // A name the language cannot carry (a control character): the link still says what it is.
    }
    rows.push({ ...p, query, scope })
  }
  return rows
}

/** Leak counts in severity order (critical … info, other words, none); the five known ones always. */
export function severityList(counts: Record<string, number>): SeverityCount[] {
  const words = new Set<string>([...SEVERITIES, ...Object.keys(counts)])
  return [...words]
    .map((word) => ({ word, rank: severityRank(word), count: Object.hasOwn(counts, word) ? counts[word]! : 0, query: severityQuery(word) }))
    .sort((a, b) => a.rank - b.rank || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
}

/** The search of the leaks of one severity word: `+severity:high`, quoted when not a plain word; none is `-severity:*`. */
export const severityQuery = (word: string): string =>
  word === '' ? '-severity:*' : /^[a-z]+$/.test(word) ? `+severity:${word}` : `+severity:"${word.replace(/[\\"]/g, (c) => `\\${c}`)}"`

/** The stylesheet or the script: cached for a year, with a validator, gzipped when accepted. */
function sendStatic(req: IncomingMessage, res: ServerResponse, type: string, plain: Buffer, zippedBody: Buffer, hash: string): void {
  const etag = `"${hash}"`
  const headers: Record<string, string | number> = {
    'content-type': type,
    // The page links it with ?v=HASH, so a changed file has a new address.
    'cache-control': 'public, max-age=31536000, immutable',
    etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
  }
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers)
    return void res.end()
  }
  const zipped = acceptsGzip(req.headers['accept-encoding'])
  const body = zipped ? zippedBody : plain
  res.writeHead(200, { ...headers, ...(zipped ? { 'content-encoding': 'gzip' } : {}), 'content-length': body.length })
  res.end(body)
}

/**
 * One event's canonical JSON, as stored, whatever the accept header (a row's "Full event (JSON)" link;
 * the key is in the row). Errors are pages when the client prefers HTML, else JSON.
 */
function handleRaw(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, route: 'host' | 'domain', raw: string, key: string): void {
  const fail = (status: number, description: string) => (prefersHtml(req.headers.accept) ? sendHtmlError(req, res, status, description) : sendError(res, status, description))
  guarded(req, res, async () => {
    if (!withinPageLimit(ctx, pageCaller(ctx, req), req, res)) return
    const param = decodeParam(raw)
    if (param === null) return fail(400, badEncoding(raw))
    if (!EVENT_KEY.test(key)) return fail(400, `${shown(key)} is not an event key (16 hexadecimal digits, from a row of a page).`)
    const seen = route === 'host' ? await ctx.store.hostSeen(param) : await ctx.store.domainSeen(param)
    if (seen === null) return fail(400, route === 'host' ? notIp(param) : notDomain(param))
    for (const item of [...seen.leaks, ...seen.services]) {
      const text = Buffer.from(item.json.buffer, item.json.byteOffset, item.json.byteLength)
      if (eventKey(JSON.parse(text.toString('utf8')) as Event) === key) return sendJson(res, 200, text)
    }
    fail(404, `No event with key ${key} is stored for ${shown(param)}.`)
  })
}

function checkQuery(query: URLSearchParams, known: readonly string[]): string | null {
  for (const name of query.keys()) {
    if (!known.includes(name)) return `The query parameter ${shown(name)} is not known here; this page takes ${known.join(', ')}.`
  }
  return null
}

const queryOf = (req: IncomingMessage): URLSearchParams => {
  const url = req.url ?? '/'
  const q = url.indexOf('?')
  return new URLSearchParams(q === -1 ? '' : url.slice(q + 1))
}

/** The plan pages use: the anonymous one per client address, or the `web_key` key's. */
function pageCaller(ctx: ServiceContext, req: IncomingMessage): Caller {
  const name = ctx.config.webKey ?? null
  const key = name === null ? undefined : ctx.config.keys.find((k) => k.name === name)
  if (key !== undefined) return { plan: ctx.config.plans[key.plan], bucket: `key:${key.name}` }
  return { plan: ctx.config.plans.anonymous, bucket: `address:${req.socket.remoteAddress ?? 'unknown'}` }
}

/**
 * The pages' own budget (PAGE_RATE, or the plan's rate where that is higher; none when the plan
 * has no limit), per client address, answered like the lookups' limit with an error page (429,
 * `x-limited-for`, `retry-after`) whose search box keeps `box`.
 */
function withinPageLimit(ctx: ServiceContext, caller: Caller, req: IncomingMessage, res: ServerResponse, box?: Box): boolean {
  const plan = caller.plan.rate
  if (plan === null) return true
  const rule: RateRule = { rate: Math.max(plan.rate, PAGE_RATE.rate), burst: Math.max(plan.burst, PAGE_RATE.burst) }
  const waitMs = ctx.limiter.take(`page:address:${req.socket.remoteAddress ?? 'unknown'}`, rule)
  if (waitMs === 0) return true
  const wait = formatMillis(waitMs)
  sendHtmlError(
    req,
    res,
    429,
    `Too many pages at once: wait ${wait} before the next page (pages allow ${rule.burst} at once, then ${rule.rate} a second; sorting a table is free).`,
    { 'x-limited-for': wait, 'retry-after': String(Math.ceil(waitMs / 1000)) },
    box,
  )
  return false
}

/** Runs an async handler; a failure becomes a 500 page (or a dropped connection once answering). */
export function guarded(req: IncomingMessage, res: ServerResponse, handler: () => Promise<void>): void {
  handler().catch((error: unknown) => {
    if (!res.headersSent) sendHtmlError(req, res, 500, failed('The page could not be made', error))
    else res.destroy()
  })
}

