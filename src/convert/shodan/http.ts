/**
 * A Shodan HTTP banner: `http{status, title, location, favicon{hash}}` and the response head,
 * which Shodan keeps only as raw text in `data` (there is no header map).
 */
import type { Event } from '../../schema/index.js'
import { HeaderBuilder, parseRawHeaders } from '../common/headers.js'
import { httpSummaryText, titleOf } from '../common/http.js'
import { type Json, at, int, str } from '../common/values.js'

/** True when a banner's raw `data` is an HTTP response (its status line first). */
export const isHttpResponse = (data: string) => /^HTTP\/\d/i.test(data)

/**
 * Fills `http` and, when `data` is an HTTP response head, the header map and the summary
 * (status line, headers, title). Folded lines join the previous value; repeated names are
 * joined as everywhere (cookies with newlines). A `data` that is not an HTTP response (a
 * probe answered by something else) is kept as the summary, with no headers. Without an
 * `http` member (some modules answer with the raw response only), the status comes from the
 * status line and the title from the body `data` goes on with.
 */
export function fillHttp(e: Event, http: Json | undefined, data: string): void {
  e.http.status = int(http?.status) ?? 0
  e.http.title = (http ? str(http.title) : titleOf(bodyOf(data))).replace(/\s+/g, ' ').trim()
  const favicon = http ? at(http, 'favicon', 'hash') : undefined
  e.http.favicon_hash = typeof favicon === 'number' && Number.isSafeInteger(favicon) ? String(favicon) : str(favicon)
  const location = http ? str(http.location) : ''
  e.http.url = location === '/' ? '' : location
  if (!isHttpResponse(data)) return
  const headers = new HeaderBuilder()
  const statusLine = parseRawHeaders(data, headers)
  e.http.header = headers.map
  e.http.length = int(headers.map['content-length']) ?? 0
  if (e.http.status === 0) e.http.status = int(/^HTTP\/\S+\s+(\d{3})/i.exec(statusLine)?.[1]) ?? 0
  e.summary = httpSummaryText(statusLine, headers.text(), e.http.title)
}

/** What follows the response head in `data` (the blank line that ends it), or ''. */
function bodyOf(data: string): string {
  const m = /\r?\n\r?\n/.exec(data)
  return m ? data.slice(m.index + m[0].length) : ''
}
