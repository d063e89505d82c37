/**
 * A Shodan HTTP banner: `http{status, title, location, favicon{hash}}` and the response head,
 * which Shodan keeps only as raw text in `data` (there is no header map).
 */
import type { Event } from '../../schema/index.js'
import { HeaderBuilder, parseRawHeaders } from '../common/headers.js'
import { httpSummaryText } from '../common/http.js'
import { type Json, at, int, str } from '../common/values.js'

/**
 * Fills `http` and, when `data` is an HTTP response head, the header map and the summary
 * (status line, headers, title). Folded lines join the previous value; repeated names are
 * joined as everywhere (cookies with newlines). A `data` that is not an HTTP response (a
 * probe answered by something else) is kept as the summary, with no headers.
 */
export function fillHttp(e: Event, http: Json, data: string): void {
  e.http.status = int(http.status) ?? 0
  e.http.title = str(http.title).replace(/\s+/g, ' ').trim()
  const favicon = at(http, 'favicon', 'hash')
  e.http.favicon_hash = typeof favicon === 'number' && Number.isSafeInteger(favicon) ? String(favicon) : str(favicon)
  const location = str(http.location)
  e.http.url = location === '/' ? '' : location
  if (!/^HTTP\/\d/i.test(data)) return
  const headers = new HeaderBuilder()
  const statusLine = parseRawHeaders(data, headers)
  e.http.header = headers.map
  e.http.length = int(headers.map['content-length']) ?? 0
  if (e.http.status === 0) e.http.status = int(/^HTTP\/\S+\s+(\d{3})/i.exec(statusLine)?.[1]) ?? 0
  e.summary = httpSummaryText(statusLine, headers.text(), e.http.title)
}
