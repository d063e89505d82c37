/**
 * One katana JSON line (`-jsonl`: one crawled endpoint and its response) → one `service`
 * event for the endpoint: host, port, scheme and path from `request.endpoint`, the status,
 * length, headers (snake_case names back to HTTP names: `content_type` → `content-type`)
 * and the title of the body. katana writes members in any order (from a map); nothing here
 * depends on the order. katana does not record the address it connected to: `ip` is left
 * empty (the format's "absent or unknown"), unless the endpoint's host is itself an address.
 * A request that got no response (katana's `error`) found nothing to report: no event.
 */
import { emptyEvent } from '../../schema/empty.js'
import { addSnakeHeaderMap, HeaderBuilder, parseRawHeaders } from '../common/headers.js'
import { httpSummaryText, titleOf } from '../common/http.js'
import { parseUrl, setAddress, TLS_SCHEMES } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { techModule } from '../common/software.js'
import { eventTime } from '../common/time.js'
import { type Json, int, obj, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** One katana record → one event (none when the request failed), or why not. */
export function mapKatana(r: Json, ctx: ConvertContext): Mapped {
  const request = obj(r.request)
  if (!request) return { reason: 'not a katana record: no request object' }
  const endpoint = str(request.endpoint).trim()
  const response = obj(r.response)
  const status = int(response?.status_code) ?? 0
  if (!response || status === 0) {
    if (str(r.error) !== '') return [] // the crawler could not fetch it: nothing was there
    return { reason: `no response for ${JSON.stringify(endpoint)}` }
  }
  const url = parseUrl(endpoint)
  if (!url || (url.scheme !== 'http' && url.scheme !== 'https')) return { reason: `request.endpoint ${JSON.stringify(endpoint)} is not an http(s) URL` }
  if (!url.port) return { reason: `request.endpoint ${JSON.stringify(endpoint)} has no port` }
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = time.value
  setAddress(e, url.host)
  e.port = url.port
  const tls = TLS_SCHEMES.has(url.scheme)
  e.transport = tls ? ['tcp', 'tls', 'http'] : ['tcp', 'http']
  e.protocol = url.scheme
  if (tls) {
    e.ssl.detected = true
    e.ssl.enabled = true
  }
  e.http.url = url.path === '/' ? '' : url.path
  e.http.status = status
  const body = str(response.body)
  e.http.length = int(response.content_length) ?? Buffer.byteLength(body)
  e.http.title = titleOf(body)
  const headers = new HeaderBuilder()
  const map = obj(response.headers)
  if (map) addSnakeHeaderMap(map, headers)
  // The raw response gives the status line (and the headers when the map is missing).
  const raw = str(response.raw)
  const statusLine = raw === '' ? '' : parseRawHeaders(raw, map ? new HeaderBuilder() : headers)
  e.http.header = headers.map
  e.summary = httpSummaryText(statusLine || `HTTP ${status}`, headers.text(), e.http.title)
  const tech = strings(response.technologies)
  if (tech.length) e.service.software.modules = tech.map(techModule)
  return e
}
