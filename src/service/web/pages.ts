/**
 * The web view over HTTP: the host and domain pages (for a client that prefers text/html), the
 * index page with its search form, and the stylesheet. Pages are served on the anonymous plan
 * (rate limit per client address), or on the plan of the key the configuration's `web_key`
 * names (its bucket shared with API use of that key); an `api-key` header is not read here.
 * Checks run in the lookups' order: route, method, rate limit (429), parameter (400).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type Event, SEVERITIES } from '../../schema/index.js'
import type { Caller, ServiceContext } from '../http/context.js'
import { sendError, sendJson, shown } from '../http/reply.js'
import { badEncoding, decodeParam, notDomain, notIp } from '../http/route.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import { formatMillis } from '../ratelimit/index.js'
import { DOMAIN_COLUMNS, domainView } from './domain-view.js'
import { FINDING_COLUMNS, hostView } from './host-view.js'
import { prefersHtml } from '../http/negotiate.js'
import { renderDomain, renderHost, renderIndex, type SeverityCount } from './render.js'
import { eventKey, severityRank } from './rows.js'
import { apiPathOf, acceptsGzip, sendHtml, sendHtmlError } from './send.js'
import { parseSort } from './sort.js'
import { STYLESHEET, STYLESHEET_GZIP, STYLESHEET_HASH, STYLESHEET_PATH } from './stylesheet.js'

/** Query parameters the host and domain pages take. */
const PAGE_QUERY = ['sort', 'dir']
/** `/raw/host/:ip/:key` and `/raw/domain/:domain/:key`: one event's JSON (a row's "Raw JSON" link). */
const RAW = /^\/raw\/(host|domain)\/([^/]*)\/([^/]*)$/
const EVENT_KEY = /^[0-9a-f]{16}$/

/** True when a lookup route should answer with a page rather than JSON. */
export function wantsPage(req: IncomingMessage): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && prefersHtml(req.headers.accept)
}

/** GET /host/:ip or /domain/:domain for a browser. */
export function handlePage(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, route: 'host' | 'domain', raw: string): void {
  guarded(req, res, async () => {
    const caller = pageCaller(ctx, req)
    if (!withinPageLimit(ctx, caller, req, res)) return
    const param = decodeParam(raw)
    if (param === null) return sendHtmlError(req, res, 400, badEncoding(raw))
    if (param === '') return sendHtmlError(req, res, 400, `The path needs ${route === 'host' ? 'an IP address' : 'a domain name'} after the last '/'.`)
    const canonical = route === 'host' ? canonicalIp(param) : canonicalDomain(param)
    if (canonical === null) return sendHtmlError(req, res, 400, route === 'host' ? notIp(param) : notDomain(param))
    const query = queryOf(req)
    const problem = checkQuery(query)
    if (problem !== null) return sendHtmlError(req, res, 400, problem)
    const sort = parseSort(query, route === 'host' ? FINDING_COLUMNS.map(([k]) => k) : DOMAIN_COLUMNS.map(([k]) => k))
    if (typeof sort === 'string') return sendHtmlError(req, res, 400, sort)

    const seen = route === 'host' ? await ctx.store.hostSeen(canonical) : await ctx.store.domainSeen(canonical)
    if (seen === null) return sendHtmlError(req, res, 400, route === 'host' ? notIp(param) : notDomain(param))
    if (route === 'host') return sendHtml(req, res, 200, renderHost(hostView(canonical, seen, sort), apiPathOf(req)))
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
    sendStylesheet(req, res)
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
      sendHtml(req, res, 200, renderIndex({ counts: severityList(counts), leaks: Object.values(counts).reduce((a, b) => a + b, 0), events: ctx.store.size }))
    })
    return true
  }
  if (path === '/search') {
    search(req, res)
    return true
  }
  return false
}

/** GET /search?q=…: a redirect to the host or domain page, or a 400 page saying why not. */
function search(req: IncomingMessage, res: ServerResponse): void {
  const q = (queryOf(req).get('q') ?? '').trim()
  if (q === '') return sendHtmlError(req, res, 400, 'Type an IP address or a domain name to look up.')
  const ip = canonicalIp(q)
  const name = ip === null ? canonicalDomain(q) : null
  if (ip === null && name === null) return sendHtmlError(req, res, 400, `${shown(q)} is neither an IPv4 or IPv6 address nor a domain name.`)
  const location = ip !== null ? `/host/${encodeURIComponent(ip)}` : `/domain/${encodeURIComponent(name!)}`
  res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-cache' })
  res.end()
}

/** Leak counts in severity order (critical … info, other words, none); the five known ones always. */
export function severityList(counts: Record<string, number>): SeverityCount[] {
  const words = new Set<string>([...SEVERITIES, ...Object.keys(counts)])
  return [...words]
    .map((word) => ({ word, rank: severityRank(word), count: Object.hasOwn(counts, word) ? counts[word]! : 0 }))
    .sort((a, b) => a.rank - b.rank || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0))
}

function sendStylesheet(req: IncomingMessage, res: ServerResponse): void {
  const etag = `"${STYLESHEET_HASH}"`
  const headers: Record<string, string | number> = {
    'content-type': 'text/css; charset=utf-8',
    // The page links it with ?v=HASH, so a changed stylesheet has a new address.
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
  const body = zipped ? STYLESHEET_GZIP : STYLESHEET
  res.writeHead(200, { ...headers, ...(zipped ? { 'content-encoding': 'gzip' } : {}), 'content-length': body.length })
  res.end(body)
}

/**
 * One event's canonical JSON, as stored, whatever the accept header (a row's "Raw JSON" link;
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

function checkQuery(query: URLSearchParams): string | null {
  for (const name of query.keys()) {
    if (!PAGE_QUERY.includes(name)) return `The query parameter ${shown(name)} is not known here; pages take sort and dir.`
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

/** As the lookups' rate limit, answered with an error page (429, `x-limited-for`, `retry-after`). */
function withinPageLimit(ctx: ServiceContext, caller: Caller, req: IncomingMessage, res: ServerResponse): boolean {
  const rule = caller.plan.rate
  if (rule === null) return true
  const waitMs = ctx.limiter.take(caller.bucket, rule)
  if (waitMs === 0) return true
  const wait = formatMillis(waitMs)
  sendHtmlError(req, res, 429, `Rate limit of the ${caller.plan.name} plan reached: wait ${wait} before the next page.`, {
    'x-limited-for': wait,
    'retry-after': String(Math.ceil(waitMs / 1000)),
  })
  return false
}

/** Runs an async handler; a failure becomes a 500 page (or a dropped connection once answering). */
function guarded(req: IncomingMessage, res: ServerResponse, handler: () => Promise<void>): void {
  handler().catch((error: unknown) => {
    if (!res.headersSent) sendHtmlError(req, res, 500, `The page could not be made: ${(error as Error).message}`)
    else res.destroy()
  })
}

