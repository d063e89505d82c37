/**
 * The client's search: one page of `GET /search?scope=…&q=…&page=N` as typed events, and every
 * page from the first until an empty one (how LeakIX's Go client pages). Query errors come
 * back as a ClientError of kind `http` whose message holds the server's description (the
 * position and the offending term).
 */
import type { Event } from '../schema/index.js'
import { type Report, validateDocument } from '../validate/index.js'
import { errorText } from './client.js'
import { ClientError } from './errors.js'
import type { RawResponse } from './http.js'

/** The two scopes of the lookup API. */
export type SearchScope = 'service' | 'leak'

export interface SearchOptions {
  scope: SearchScope
  /** The page, from 0 (default 0). */
  page?: number
}

export interface SearchPagesOptions {
  scope: SearchScope
  /** The first page read (default 0). */
  fromPage?: number
  /** Stop after this many pages even when they are not empty (default: until an empty page). */
  maxPages?: number
  /** Take a page shorter than an earlier one as the last (default false: until an empty page). */
  shortPageEnds?: boolean
}

/** Unpaired surrogates (UTF-8 cannot carry them; sent as U+FFFD, as a server would read them). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** Percent-encodes a query parameter's value (UTF-8; an unpaired surrogate as U+FFFD). */
export const queryValue = (value: string) => encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'))

/** The request target of one search page (both values percent-encoded). */
export function searchPath(q: string, scope: SearchScope | string, page: number | string): string {
  return `/search?scope=${queryValue(scope)}&q=${queryValue(q)}&page=${queryValue(String(page))}`
}

export interface CountOptions {
  scope: SearchScope
  /** Facets: names separated by commas, each optionally `:N` (`port,country:5`); docs/search.md lists them. */
  facets?: string
}

/** The request target of a count (GET /search/count, our extension; the values percent-encoded). */
export function countPath(q: string, scope: SearchScope | string, facets?: string): string {
  return `/search/count?scope=${queryValue(scope)}&q=${queryValue(q)}${facets === undefined || facets === '' ? '' : `&facet=${queryValue(facets)}`}`
}

/**
 * Reads one page's answer: 200 with a JSON array of events (an empty body as `[]`, as LeakIX's
 * Python client reads it), 204 as no events; each event validated unless `validate` is false.
 */
export function pageOf(path: string, response: RawResponse, validate: boolean): Event[] {
  if (response.status === 204) return []
  if (response.status !== 200) {
    throw new ClientError('http', `GET ${path}: ${response.status} ${response.statusText}${errorText(response.body, response.statusText)}`, { response })
  }
  if (response.body.trim() === '') return []
  let body: unknown
  try {
    body = JSON.parse(response.body)
  } catch {
    throw new ClientError('bad_body', `GET ${path}: the 200 body is not JSON (content-type ${response.headers['content-type'] ?? 'none'})`, { response })
  }
  if (!Array.isArray(body)) throw new ClientError('invalid_response', `GET ${path}: (body): a search page is a JSON array of events`, { response })
  if (!validate) return body as Event[]
  for (let i = 0; i < body.length; i++) {
    const report: Report = validateDocument('event', body[i])
    if (report.ok) continue
    const first = report.errors[0]!
    const more = report.errors.length > 1 ? ` (and ${report.errors.length - 1} more)` : ''
    throw new ClientError('invalid_response', `GET ${path}: /${i}${first.pointer}: ${first.message}${more}`, { response, report })
  }
  return body as Event[]
}

/** Checks a page number given by the caller. */
export function checkPage(page: number, what: string): void {
  if (!Number.isSafeInteger(page) || page < 0) throw new RangeError(`${what} must be an integer ≥ 0 (got ${page})`)
}
