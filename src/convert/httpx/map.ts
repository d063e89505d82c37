/**
 * One httpx JSON Lines record → one `service` event. Handles the version drift described in
 * docs/convert.md: `host` is the IP up to v1.7.2 and the host name from v1.7.3 (the IP
 * then in `host_ip`); `jarm` became `jarm_hash`; `header` is a map with snake_case names
 * (dashes restored here) or, before late 2022, a raw header block; early releases named
 * `tech` `technologies` and `tls` `tls-grab`.
 */
import { emptyEvent } from '../../schema/empty.js'
import { addSnakeHeaderMap, HeaderBuilder, parseRawHeaders } from '../common/headers.js'
import { httpSummaryText } from '../common/http.js'
import { fillTlsx } from '../common/tlsx.js'
import { ipVersion, parseUrl, portText, setAddress, unbracket, type UrlParts } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { productToken, techModule } from '../common/software.js'
import { eventTime } from '../common/time.js'
import { type Json, int, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** One httpx record → one event (none for a failed probe), or why not. */
export function mapHttpx(r: Json, ctx: ConvertContext): Mapped {
  // A failed probe (`-probe`) found nothing listening: no event, as for a closed port.
  if (r.failed === true) return []
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  // The URL backs up host, port, scheme and path: parsed only when one of those is missing
  // (records since v1.7.3 give them all).
  let parsedUrl: UrlParts | undefined | null = null
  const url = () => (parsedUrl === null ? (parsedUrl = parseUrl(str(r.url))) : parsedUrl)
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = time.value

  // Addresses: host_ip (≥ v1.7.3), else `host` when it is an IP (≤ v1.7.2), else the first A/AAAA.
  const hostField = str(r.host)
  // (Written out, not as a list to search: this runs for every record.)
  let ip = str(r.host_ip)
  if (ipVersion(ip) === 0) ip = hostField
  if (ipVersion(ip) === 0) ip = [...strings(r.a), ...strings(r.aaaa)].find((a) => ipVersion(a) !== 0) ?? ''
  // `ip` is now an IP literal or '': no need for setAddress() to check it again.
  if (ip !== '') e.ip = unbracket(ip)
  const name = hostField !== '' && ipVersion(hostField) === 0 ? hostField : hostName(url()?.host ?? '')
  if (name) setAddress(e, name)
  if (e.ip === '' && e.host === '') return { reason: 'no host or IP address (expected host, host_ip or url)' }

  const port = portText(r.port) ?? url()?.port
  if (!port) return { reason: `no port: port ${JSON.stringify(r.port ?? null)} and url ${JSON.stringify(r.url ?? null)} give none` }
  e.port = port

  const scheme = (str(r.scheme) || url()?.scheme || 'http').toLowerCase()
  const tlsData = obj(r.tls) ?? obj(r['tls-grab']) // `tls-grab` in early releases
  const tls = scheme === 'https' || tlsData !== undefined
  e.transport = tls ? ['tcp', 'tls', 'http'] : ['tcp', 'http']
  e.protocol = tls ? 'https' : 'http'

  const path = str(r.path) || url()?.path || ''
  e.http.url = path === '/' ? '' : path
  e.http.status = int(r.status_code) ?? 0
  e.http.length = int(r.content_length) ?? 0
  e.http.title = str(r.title).trim()
  e.http.favicon_hash = str(r.favicon ?? r['favicon-mmh3'] ?? r.favicon_mmh3)

  const headers = new HeaderBuilder()
  let statusLine = ''
  const header = r.header
  if (obj(header)) addSnakeHeaderMap(obj(header)!, headers)
  else if (typeof header === 'string') statusLine = parseRawHeaders(header, headers)
  else if (typeof r.raw_header === 'string') statusLine = parseRawHeaders(r.raw_header, headers)
  e.http.header = headers.map
  e.summary = httpSummaryText(statusLine || (e.http.status ? `HTTP ${e.http.status}` : 'HTTP'), headers.text(), e.http.title)

  if (tls) {
    const problem = fillTlsx(e, tlsData, e.host)
    if (problem) return problem
  }
  e.ssl.jarm = str(r.jarm_hash) || str(r.jarm)

  const webserver = str(r.webserver).trim()
  if (webserver) {
    const { name, version, os } = productToken(webserver)
    const software = e.service.software
    software.name = name
    software.version = version
    software.os = os
  }
  const tech = strings(r.tech ?? r.technologies) // `technologies` before `tech`
  if (tech.length) e.service.software.modules = tech.map(techModule)

  const asn = obj(r.asn)
  if (asn) {
    e.network.asn = int(str(asn.as_number).replace(/^AS/i, '')) ?? 0
    e.network.organization_name = str(asn.as_name)
    e.network.network = strings(asn.as_range)[0] ?? ''
  }
  if (r.cdn === true) {
    pushUnique(e.tags, 'cdn')
    if (str(r.cdn_name)) pushUnique(e.tags, `cdn:${str(r.cdn_name)}`)
  }
  return e
}

/** A URL's host when it is a name, not an IP literal. */
const hostName = (host: string) => (host !== '' && ipVersion(host) === 0 ? host : undefined)
