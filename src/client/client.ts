/**
 * Typed client of the lookup API: `lookupHost`, `lookupDomain`, `subdomains`. Paced (about
 * one request per second by default), waits out 429s as `x-limited-for` says (or backs off
 * when it cannot be read), validates every 200 against the schema.
 */
import type { Aggregation, Event, LookupResult, Plugin, PluginStats, SearchCount, SubdomainEntry } from '../schema/index.js'
import { PLUGIN_NOT_FOUND } from '../schema/plugin-not-found.js'
import { type Report, validateDocument } from '../validate/index.js'
import { ceilMillis, parseDurationHeader } from './duration.js'
import { ClientError } from './errors.js'
import { attempt, open, type Method, type RawResponse } from './http.js'
import { jsonLines } from './bulk.js'
import type { LiveOptions, LiveScope } from './live.js'
import { Pacer, type Rate } from './pacer.js'
import { checkPage, type CountOptions, countPath, pageOf, type SearchPagesOptions, type SearchOptions, searchPath } from './search.js'

export interface ClientOptions {
  /** Base address of the service, e.g. `https://leakix.net` or `http://127.0.0.1:8080`. */
  baseUrl: string
  /** Sent as the `api-key` header when given. */
  apiKey?: string
  /** Requests per second (default 1), or `'auto'`: no pacing, only the waits 429s ask for. */
  rate?: Rate
  /** Share one pacer between clients (they then share the rate). Overrides `rate`. */
  pacer?: Pacer
  /** Per attempt, milliseconds (default 10 000). */
  timeoutMs?: number
  /** 429s retried per call (default 3). */
  maxRetries?: number
  /** Total milliseconds one call may spend waiting on 429s (default 30 000). */
  maxWaitMs?: number
  /** Back-off when a 429 has no usable `x-limited-for`: first wait and cap, milliseconds (default 1000, 16 000). */
  backoff?: { initialMs?: number; maxMs?: number }
  /** Validate 200 bodies against the schema (default true). */
  validate?: boolean
  /** Cancels every request of this client. */
  signal?: AbortSignal
  /** A fetch implementation (default: Node's global fetch). */
  fetch?: typeof fetch
  /** Called with every answer received (including 429s), e.g. to record them. */
  onResponse?: (response: RawResponse) => void
  /** Called before each wait on a 429, with the wait in milliseconds and where it came from. */
  onWait?: (ms: number, source: 'x-limited-for' | 'backoff', response: RawResponse) => void
}

export interface CallOptions {
  signal?: AbortSignal
  /** Override the client's key for this call: a string, or null for no key. */
  apiKey?: string | null
  /** Wait out 429s (default true); false returns the 429 as it came. */
  retry?: boolean
}

/** How long a 429 asks to wait, from its `x-limited-for` header; undefined when absent or unusable. */
export function limitedFor(response: Pick<RawResponse, 'headers'>): number | undefined {
  const header = response.headers['x-limited-for']
  if (header === undefined) return undefined
  const parsed = parseDurationHeader(header)
  return parsed.ok && parsed.nanoseconds >= 0n ? ceilMillis(parsed.nanoseconds) : undefined
}

/** Encodes one path segment; `:` and `@` stay as they are (allowed in a path, and IPv6 is full of colons). */
export const segment = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ':').replace(/%40/g, '@')

export class LookupClient {
  readonly baseUrl: string
  private readonly pacer: Pacer
  private readonly options: ClientOptions

  constructor(options: ClientOptions) {
    this.options = options
    this.baseUrl = options.baseUrl.replace(/\/+$/, '')
    this.pacer = options.pacer ?? new Pacer(options.rate ?? 1)
  }

  /** `GET /host/:ip`: events about an IP address. */
  lookupHost(ip: string, call?: CallOptions): Promise<LookupResult> {
    return this.typed(`/host/${segment(ip)}`, 'lookup-result', call) as Promise<LookupResult>
  }

  /** `GET /domain/:domain`: events about a domain and its subdomains. */
  lookupDomain(domain: string, call?: CallOptions): Promise<LookupResult> {
    return this.typed(`/domain/${segment(domain)}`, 'lookup-result', call) as Promise<LookupResult>
  }

  /** `GET /api/subdomains/:domain`: the subdomains known for a domain. */
  subdomains(domain: string, call?: CallOptions): Promise<SubdomainEntry[]> {
    return this.typed(`/api/subdomains/${segment(domain)}`, 'subdomains', call) as Promise<SubdomainEntry[]>
  }

  /** `GET /api/plugins`: every plugin the server has seen, with its event counts. */
  plugins(call?: CallOptions): Promise<PluginStats[]> {
    return this.typed('/api/plugins', 'plugins', call) as Promise<PluginStats[]>
  }

  /**
   * `GET /api/plugins/:name`: the plugin's name and description, or null when the server does not
   * know it (404 with the JSON string "Plugin not found", as LeakIX answers). Any other failure
   * is a ClientError.
   */
  async plugin(name: string, call?: CallOptions): Promise<Plugin | null> {
    const path = `/api/plugins/${segment(name)}`
    const response = await this.get(path, call)
    if (response.status === 404 && parsesTo(response.body, PLUGIN_NOT_FOUND)) return null
    return (await this.typed(path, 'plugin', call, response)) as Plugin
  }

  /**
   * `GET /search?scope=…&q=…&page=N`: one page of the events `q` matches, newest first, typed
   * (each validated unless `validate: false`); `[]` past the last page. 429s are waited out like
   * every call; a query the server refuses is a ClientError (kind `http`, status 400, the
   * position and term in its message).
   */
  async search(q: string, options: SearchOptions, call?: CallOptions): Promise<Event[]> {
    const page = options.page ?? 0
    checkPage(page, 'page')
    const path = searchPath(q, options.scope, page)
    return pageOf(path, await this.get(path, call), this.options.validate !== false)
  }

  /**
   * Every event `q` matches, page after page (0, 1, 2, …) until a page comes back empty (as
   * LeakIX's Go client pages), or `maxPages` were read. Each page is one paced request.
   */
  async *searchAll(q: string, options: SearchPagesOptions, call?: CallOptions): AsyncGenerator<Event> {
    for await (const { events } of this.searchPages(q, options, call)) yield* events
  }

  /**
   * The pages of searchAll(), each with its number. With `shortPageEnds`, a page shorter than
   * an earlier one is taken as the last (the page size is fixed), so the empty page after it is
   * not asked for: it may be beyond the plan's pages (a 403) when the results just fit them.
   */
  async *searchPages(q: string, options: SearchPagesOptions, call?: CallOptions): AsyncGenerator<{ page: number; events: Event[] }> {
    const from = options.fromPage ?? 0
    checkPage(from, 'fromPage')
    const max = options.maxPages ?? Number.POSITIVE_INFINITY
    let longest = 0
    for (let page = from; page - from < max; page++) {
      const events = await this.search(q, { scope: options.scope, page }, call)
      if (events.length === 0) return
      yield { page, events }
      if (options.shortPageEnds === true && events.length < longest) return
      longest = Math.max(longest, events.length)
    }
  }

  /**
   * `GET /search/count?scope=…&q=…&facet=…` (our extension): how many events `q` matches, and
   * the top values of the facets asked for. A server without the route (LeakIX's) answers 404:
   * a ClientError of kind `http` with that status (`l9kit count --slow` then counts by paging).
   */
  count(q: string, options: CountOptions, call?: CallOptions): Promise<SearchCount> {
    return this.typed(countPath(q, options.scope, options.facets), 'search-count', call) as Promise<SearchCount>
  }

  /**
   * The live stream of new `scope` events (`/ws/service` or `/ws/leak`), as an async iterator of
   * typed events: it ends when `signal` aborts, and throws a ClientError when the server refuses
   * (kind `http`, with the answer) or closes the stream (kind `closed`, with the close code).
   * One connection: reconnecting is the caller's choice (`l9kit watch` does it with backoff).
   */
  async *live(scope: LiveScope, options: LiveOptions = {}): AsyncGenerator<Event> {
    const signal = combine(this.options.signal, options.signal)
    // Loaded on use: the WebSocket code is not needed by the other calls.
    const { liveMessages } = await import('./live.js')
    for await (const message of liveMessages(this.baseUrl, this.options.apiKey, scope, { ...options, ...(signal ? { signal } : {}) })) yield message.event
  }

  /**
   * `GET /bulk/search?q=`: every leak matching `q` (a query, docs/search.md), one aggregation per
   * resource, yielded as the server streams the lines (each validated unless `validate: false`).
   * Nothing matching (204) ends at once; a refusal (403 for a plan without the bulk export, 400
   * for a bad query) throws kind `http`. Breaking out of the loop closes the connection.
   */
  bulkSearch(q: string, call?: CallOptions): AsyncGenerator<Aggregation> {
    return this.bulk('/bulk/search', q, 'aggregation', call) as AsyncGenerator<Aggregation>
  }

  /** `GET /bulk/service?q=`: every service event matching `q`, streamed as bulkSearch() does. */
  bulkServices(q: string, call?: CallOptions): AsyncGenerator<Event> {
    return this.bulk('/bulk/service', q, 'event', call) as AsyncGenerator<Event>
  }

  private async *bulk(route: string, q: string, shape: 'aggregation' | 'event', call: CallOptions = {}): AsyncGenerator<unknown> {
    const path = `${route}?q=${encodeURIComponent(q)}`
    const response = await this.request('GET', path, { headers: { accept: BULK_ACCEPT } }, call, open)
    if (response.status === 204) return
    if (response.status !== 200 || response.stream === undefined) {
      throw new ClientError('http', `GET ${path}: ${response.status} ${response.statusText}${errorText(response.body, response.statusText)}`, { response })
    }
    yield* jsonLines(response, response.stream, this.options.validate === false ? undefined : shape)
  }

  /** Any GET under the base URL, paced and (unless `retry: false`) waiting out 429s; any status is returned. */
  get(path: string, call: CallOptions = {}): Promise<RawResponse> {
    return this.request('GET', path, undefined, call)
  }

  /**
   * Any request under the base URL, paced and (unless `retry: false`) waiting out 429s; any
   * status is returned. A `json` body is sent with `content-type: application/json`.
   */
  async request(method: Method, path: string, send: { json?: unknown; text?: string; headers?: Record<string, string> } | undefined, call?: CallOptions): Promise<RawResponse>
  async request(method: 'GET', path: string, send: { headers?: Record<string, string> } | undefined, call: CallOptions, opener: typeof open): Promise<Awaited<ReturnType<typeof open>>>
  async request(
    method: Method,
    path: string,
    send: { json?: unknown; text?: string; headers?: Record<string, string> } | undefined,
    call: CallOptions = {},
    opener: typeof attempt | typeof open = attempt,
  ): Promise<RawResponse> {
    const o = this.options
    const maxRetries = o.maxRetries ?? 3
    const maxWaitMs = o.maxWaitMs ?? 30_000
    const initial = o.backoff?.initialMs ?? 1000
    const cap = o.backoff?.maxMs ?? 16_000
    const signal = combine(o.signal, call.signal)
    const key = call.apiKey === undefined ? o.apiKey : call.apiKey
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'l9kit' }
    if (key !== undefined && key !== null) headers['api-key'] = key
    Object.assign(headers, send?.headers)
    let body = send?.text
    if (send?.json !== undefined) {
      body = JSON.stringify(send.json)
      headers['content-type'] = 'application/json'
    }
    let waited = 0
    for (let retries = 0; ; retries++) {
      try {
        await this.pacer.acquire(signal)
      } catch (error) {
        throw new ClientError('aborted', `${method} ${path}: aborted`, { cause: error })
      }
      const response = await opener({ method, ...(body === undefined ? {} : { body }), fetch: o.fetch ?? fetch, url: this.baseUrl + path, path, headers, timeoutMs: o.timeoutMs ?? 10_000, signal })
      o.onResponse?.(response)
      if (response.status !== 429 || call.retry === false) return response
      const advertised = limitedFor(response)
      const wait = advertised ?? Math.min(cap, initial * 2 ** retries)
      if (retries >= maxRetries || waited + wait > maxWaitMs) {
        throw new ClientError(
          'rate_limited',
          `${method} ${path}: still rate-limited after ${retries} ${retries === 1 ? 'retry' : 'retries'} and ${waited} ms of waiting` +
            (waited + wait > maxWaitMs ? ` (the next wait, ${wait} ms, would pass the ${maxWaitMs} ms cap)` : ''),
          { response, waitedMs: waited, attempts: retries + 1 },
        )
      }
      o.onWait?.(wait, advertised === undefined ? 'backoff' : 'x-limited-for', response)
      this.pacer.holdFor(wait)
      waited += wait
    }
  }

  private async typed(path: string, shape: 'lookup-result' | 'subdomains' | 'plugins' | 'plugin' | 'search-count', call?: CallOptions, got?: RawResponse): Promise<unknown> {
    const response = got ?? (await this.get(path, call))
    if (response.status !== 200) {
      throw new ClientError('http', `GET ${path}: ${response.status} ${response.statusText}${errorText(response.body, response.statusText)}`, { response })
    }
    let body: unknown
    try {
      body = JSON.parse(response.body)
    } catch {
      throw new ClientError('bad_body', `GET ${path}: the 200 body is not JSON (content-type ${response.headers['content-type'] ?? 'none'})`, { response })
    }
    if (this.options.validate === false) return body
    const report: Report = validateDocument(shape, body)
    if (!report.ok) {
      const first = report.errors[0]!
      const more = report.errors.length > 1 ? ` (and ${report.errors.length - 1} more)` : ''
      throw new ClientError('invalid_response', `GET ${path}: ${first.pointer || '(body)'}: ${first.message}${more}`, { response, report })
    }
    return body
  }
}

/** What the bulk calls accept: JSON Lines, and JSON for the error answers. */
export const BULK_ACCEPT = 'application/x-ndjson, application/json;q=0.9'

/** Whether a body is the JSON text of `value`. */
function parsesTo(body: string, value: unknown): boolean {
  try {
    return JSON.parse(body) === value
  } catch {
    return false
  }
}

/** `: title: description` of a JSON error body, when it has one. */
export function errorText(body: string, reason?: string): string {
  try {
    const doc = JSON.parse(body) as Record<string, unknown>
    // A title that only repeats the status line's reason phrase ("403 Forbidden: Forbidden: …") is left out.
    const title = typeof doc.title === 'string' && doc.title.toLowerCase() === reason?.toLowerCase() ? undefined : doc.title
    const parts = [title, doc.description, doc.error].filter((p) => typeof p === 'string')
    return parts.length > 0 ? `: ${parts.join(': ')}` : ''
  } catch {
    return ''
  }
}

function combine(a?: AbortSignal, b?: AbortSignal): AbortSignal | undefined {
  if (a && b) return AbortSignal.any([a, b])
  return a ?? b
}

/** A client (the same as `new LookupClient(options)`). */
export const createClient = (options: ClientOptions) => new LookupClient(options)
