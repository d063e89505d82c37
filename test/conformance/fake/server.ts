/**
 * A small, correct lookup server on 127.0.0.1 (node:http): every conformance check passes
 * against it. Each broken fixture in ../broken/ replaces one part of `Behaviour`.
 */
import { createServer, type ServerResponse } from 'node:http'
import { type AddressInfo, isIP } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'
import type { Event, SubdomainEntry } from '../../../src/schema/index.js'
import { matches, parseQuery, type Query, QueryError } from '../../../src/query/index.js'
import { FacetError, facetCounts, type FacetRequest, parseFacets } from '../../../src/query/facets.js'
import { fakeEvents } from './data.js'
import { CORRECT_HOOKS, FAKE_PRO_KEY, hookApi, type HookBehaviour } from './hooks.js'

export const FAKE_KEY = 'fake-registered-key'
export type Plan = 'anonymous' | 'registered'
export type Route = 'host' | 'domain' | 'subdomains'

/** Anonymous callers: a burst of 3, then one request per 100 ms. */
const BURST = 3
const REFILL_MS = 100
const ANONYMOUS_SUBDOMAINS = 2
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

export interface Behaviour {
  /** The plan of an api-key header value (undefined: no header); null refuses it with 401. */
  plan(key: string | undefined): Plan | null
  hostEvents(ip: string, events: Event[]): Event[]
  domainEvents(domain: string, events: Event[]): Event[]
  subdomains(domain: string, events: Event[]): SubdomainEntry[]
  /** The 200 body of a host or domain lookup. */
  lookupBody(events: Event[]): unknown
  /** A well-formed name with no events: 200 with nulls (or `[]`). */
  unknown(res: ServerResponse, route: Route): void
  /** Writes a 429 that asks to wait `ms`. */
  limited(res: ServerResponse, ms: number): void
  error(res: ServerResponse, status: number, description: string): void
  /** Answers first when it returns true (a fixture's crash). */
  intercept(res: ServerResponse, route: Route, param: string): boolean
  /** The hook API and its deliveries (./hooks.ts). */
  hooks: HookBehaviour
  /** GET /api/plugins: the list (from the events' sources: all counted in every window). */
  plugins(events: Event[]): { name: string; description: string; event_count1h: number; event_count24h: number; event_count7d: number }[]
  /** GET /api/plugins/:name of a name the list does not hold. */
  pluginNotFound(res: ServerResponse): void
  /** GET /bulk/search (leaks) or /bulk/service (services): the events matching `q`, as the lines to write. */
  bulk(route: 'search' | 'service', q: string, events: Event[]): unknown[]
  /** GET /search: the events a query matches (any order: the server sorts them newest first). */
  searchMatches(query: Query, events: Event[]): Event[]
  /** Where page `page` of `size` events starts. */
  searchOffset(page: number, size: number): number
  /** GET /search/count: the total and facets of a query (`matched`: searchMatches' answer). */
  count(matched: Event[], facets: FacetRequest[], events: Event[]): { total: number; facets?: Record<string, unknown> }
}

/** Leaks of one address made into an aggregation (docs/service.md, "Aggregations"), in the fake's own simple way. */
export function aggregationOf(ip: string, leaks: Event[]): unknown {
  const sorted = [...leaks].sort((a, b) => (millis(b.time) < millis(a.time) ? -1 : millis(b.time) > millis(a.time) ? 1 : 0))
  const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))]
  const times = sorted.map((e) => e.time)
  return {
    summary: sorted[0]!.summary,
    ip,
    resource_id: ip,
    open_ports: distinct(sorted.map((e) => e.port)).sort((a, b) => Number(a) - Number(b)),
    leak_count: distinct(sorted.map((e) => `${e.event_source} ${e.host} ${e.port}`)).length,
    leak_event_count: sorted.length,
    events: sorted,
    plugins: distinct(sorted.map((e) => e.event_source)).sort(),
    geoip: sorted[0]!.geoip,
    network: sorted[0]!.network,
    creation_date: times[times.length - 1],
    update_date: times[0],
    fresh: false,
  }
}

/** Events a page of GET /search holds here: small, so that the fake's few events fill several pages. */
export const FAKE_SEARCH_PAGE = 2

export const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, reason?: string) => {
  const all = { 'content-type': 'application/json; charset=utf-8', ...headers }
  if (reason === undefined) res.writeHead(status, all)
  else res.writeHead(status, reason, all)
  res.end(JSON.stringify(body))
}

const TITLES: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error' }

/** One IP's comparable spelling (IPv6 through the URL parser, which writes RFC 5952). */
export const ipKey = (ip: string) => (isIP(ip) === 6 ? new URL(`http://[${ip}]/`).hostname.slice(1, -1) : ip)
export const below = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`)

/** `last_seen`: milliseconds and Z. */
export const millis = (time: string) => new Date(time).toISOString()

export const CORRECT: Behaviour = {
  plan: (key) => (key === undefined ? 'anonymous' : key === FAKE_KEY || key === FAKE_PRO_KEY ? 'registered' : null),
  hostEvents: (ip, events) => events.filter((e) => ipKey(e.ip) === ipKey(ip)),
  domainEvents: (domain, events) => events.filter((e) => below(e.host, domain)),
  subdomains(domain, events) {
    const names = new Map<string, { ips: Set<string>; last: string }>()
    for (const e of events) {
      if (!e.host.endsWith(`.${domain}`)) continue
      const entry = names.get(e.host) ?? { ips: new Set(), last: e.time }
      entry.ips.add(e.ip)
      if (millis(e.time) > millis(entry.last)) entry.last = e.time
      names.set(e.host, entry)
    }
    return [...names].map(([subdomain, v]) => ({ subdomain, distinct_ips: v.ips.size, last_seen: millis(v.last) }))
  },
  lookupBody(events) {
    const services = events.filter((e) => e.event_type === 'service')
    const leaks = events.filter((e) => e.event_type === 'leak')
    return { Services: services.length > 0 ? services : null, Leaks: leaks.length > 0 ? leaks : null }
  },
  unknown: (res, route) => send(res, 200, route === 'subdomains' ? [] : { Services: null, Leaks: null }),
  limited: (res, ms) => send(res, 429, { title: TITLES[429], description: 'slow down' }, { 'x-limited-for': `${ms.toFixed(3).replace(/\.?0+$/, '')}ms` }, 'Rate-limited'),
  error: (res, status, description) => send(res, status, { title: TITLES[status] ?? 'Error', description }),
  intercept: () => false,
  hooks: CORRECT_HOOKS,
  plugins(events) {
    const names = [...new Set(events.map((e) => e.event_source))].filter((n) => n !== '').sort()
    return names.map((name) => {
      const n = events.filter((e) => e.event_source === name).length
      return { name, description: `The ${name} plugin.`, event_count1h: 0, event_count24h: n, event_count7d: n }
    })
  },
  pluginNotFound: (res) => send(res, 404, 'Plugin not found'),
  bulk(route, q, events) {
    const query = parseQuery(q, { scope: route === 'search' ? 'leak' : 'service' })
    const found = events.filter((e) => matches(query, e))
    if (route === 'service') return found
    const byIp = new Map<string, Event[]>()
    for (const e of found) byIp.set(ipKey(e.ip), [...(byIp.get(ipKey(e.ip)) ?? []), e])
    return [...byIp].map(([ip, leaks]) => aggregationOf(ip, leaks))
  },
  searchMatches: (query, events) => events.filter((e) => matches(query, e)),
  searchOffset: (page, size) => page * size,
  count: (matched, facets) => ({
    total: matched.length,
    ...(facets.length === 0 ? {} : { facets: Object.fromEntries(facets.map(({ facet, limit }) => [facet.name, facetCounts(facet, matched as never, limit)])) }),
  }),
}

/**
 * What the fake does not model (it and its broken fixtures are judged without them): the
 * OpenAPI document's 429 headers, methods, parameters and keys, the export's order, the live
 * stream. The mutation test judges those against the reference service (mutation.test.ts).
 */
export const FAKE_LACKS = ['bulk-order', 'documented-headers', 'key-required', 'param-constraints', 'unsupported-method', 'live-delivers', 'live-scope', 'live-filter']

export interface Fake {
  url: string
  close(): Promise<void>
}

/** Starts the fake with `defect` replacing parts of the correct behaviour. */
export async function startFake(defect: Partial<Behaviour> = {}): Promise<Fake> {
  const b: Behaviour = { ...CORRECT, ...defect }
  const events = fakeEvents()
  const buckets = new Map<string, { tokens: number; at: number }>()
  /** Milliseconds to wait, or 0 when a token was taken. */
  const take = (who: string) => {
    const now = performance.now()
    const bucket = buckets.get(who) ?? { tokens: BURST, at: now }
    bucket.tokens = Math.min(BURST, bucket.tokens + (now - bucket.at) / REFILL_MS)
    bucket.at = now
    buckets.set(who, bucket)
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return (1 - bucket.tokens) * REFILL_MS
  }

  const subscribers = new Set<{ ws: WebSocket; leak: boolean }>()
  const api = hookApi(b.hooks, events, (fresh) => {
    for (const e of fresh) for (const s of subscribers) if ((e.event_type === 'leak') === s.leak) s.ws.send(JSON.stringify(e))
  })
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!
    if (path === '/api/plugins' || path.startsWith('/api/plugins/')) {
      const list = b.plugins(events)
      if (path === '/api/plugins') return send(res, 200, list)
      const found = list.find((p) => p.name === decodeURIComponent(path.slice(13)))
      return found ? send(res, 200, { name: found.name, description: found.description }) : b.pluginNotFound(res)
    }
    if (path === '/bulk/search' || path === '/bulk/service') {
      let lines: unknown[]
      try {
        lines = b.bulk(path === '/bulk/search' ? 'search' : 'service', new URL(req.url ?? '/', 'http://x').searchParams.get('q') ?? '', events)
      } catch (error) {
        if (error instanceof QueryError) return b.error(res, 400, error.message)
        throw error
      }
      if (lines.length === 0) return void res.writeHead(204).end()
      res.writeHead(200, { 'content-type': 'application/x-ndjson' })
      return void res.end(lines.map((l) => JSON.stringify(l) + '\n').join(''))
    }
    if (path === '/search') return search(req.url ?? '', res)
    if (path === '/search/count') return count(req.url ?? '', res)
    if (path === '/admin/events' || path.startsWith('/api/resources') || path.startsWith('/api/hooks')) {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', () => {
        if (!api.handle(req, res, path, Buffer.concat(chunks).toString('utf8'))) b.error(res, 404, 'no such route')
      })
      return
    }
    const match = /^\/(host|domain|api\/subdomains)\/([^/?]*)$/.exec((req.url ?? '').split('?')[0]!)
    if (!match) return b.error(res, 404, 'no such route')
    const route: Route = match[1] === 'api/subdomains' ? 'subdomains' : (match[1] as Route)
    const header = req.headers['api-key']
    const plan = b.plan(Array.isArray(header) ? header[0] : header)
    if (plan === null) return b.error(res, 401, 'unknown api-key')
    if (plan === 'anonymous') {
      const wait = take(req.socket.remoteAddress ?? '')
      if (wait > 0) return b.limited(res, wait)
    }
    let param: string
    try {
      param = decodeURIComponent(match[2]!)
    } catch {
      return b.error(res, 400, 'bad percent-encoding')
    }
    if (b.intercept(res, route, param)) return
    if (route === 'host') {
      const ip = param.replace(/^\[(.*)\]$/, '$1')
      if (!isIP(ip)) return b.error(res, 400, 'not an IP address')
      const found = b.hostEvents(ip, events)
      return found.length > 0 ? send(res, 200, b.lookupBody(found)) : b.unknown(res, route)
    }
    const domain = param.toLowerCase().replace(/\.$/, '')
    if (!DOMAIN.test(domain)) return b.error(res, 400, 'not a domain name')
    if (route === 'domain') {
      const found = b.domainEvents(domain, events)
      return found.length > 0 ? send(res, 200, b.lookupBody(found)) : b.unknown(res, route)
    }
    const entries = b.subdomains(domain, events)
    if (entries.length === 0) return b.unknown(res, route)
    send(res, 200, plan === 'anonymous' ? entries.slice(0, ANONYMOUS_SUBDOMAINS) : entries)
  })
  /** GET /search/count?scope=&q=&facet=: the same matches as /search, counted. */
  function count(url: string, res: ServerResponse): void {
    const params = new URL(url, 'http://fake').searchParams
    const scope = params.get('scope')
    if (scope !== 'service' && scope !== 'leak') return b.error(res, 400, 'scope must be service or leak')
    try {
      const query = parseQuery(params.get('q') ?? '', { scope })
      send(res, 200, b.count(b.searchMatches(query, events), parseFacets(params.getAll('facet').join(','), scope), events))
    } catch (error) {
      if (error instanceof QueryError || error instanceof FacetError) return b.error(res, 400, error.message)
      throw error
    }
  }
  /** GET /search?scope=&q=&page=: newest first (ties: the later stored first), FAKE_SEARCH_PAGE a page. */
  function search(url: string, res: ServerResponse): void {
    const params = new URL(url, 'http://fake').searchParams
    const scope = params.get('scope')
    if (scope !== 'service' && scope !== 'leak') return b.error(res, 400, 'scope must be service or leak')
    const page = params.get('page') ?? '0'
    if (!/^[0-9]{1,6}$/.test(page)) return b.error(res, 400, 'page must be an integer from 0')
    let query: Query
    try {
      query = parseQuery(params.get('q') ?? '', { scope })
    } catch (error) {
      if (error instanceof QueryError) return b.error(res, 400, error.message)
      throw error
    }
    const order = new Map(events.map((e, i) => [e, i]))
    const found = b.searchMatches(query, events).sort((x, y) => millis(y.time).localeCompare(millis(x.time)) || order.get(y)! - order.get(x)!)
    const from = b.searchOffset(Number(page), FAKE_SEARCH_PAGE)
    send(res, 200, found.slice(from, from + FAKE_SEARCH_PAGE))
  }

  // The live stream: /ws/leak and /ws/service for either key, every new event of the scope.
  const wss = new WebSocketServer({ noServer: true })
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0]!
    const key = req.headers['api-key']
    if ((path !== '/ws/leak' && path !== '/ws/service') || (key !== FAKE_KEY && key !== FAKE_PRO_KEY)) {
      return void socket.end('HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}')
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const subscriber = { ws, leak: path === '/ws/leak' }
      subscribers.add(subscriber)
      ws.on('close', () => subscribers.delete(subscriber))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        api.close()
        for (const s of subscribers) s.ws.terminate()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
