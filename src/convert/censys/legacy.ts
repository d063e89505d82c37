/**
 * A legacy Censys host (API v1, `/view/ipv4/{ip}`, the older `censys` client): `protocols`
 * lists `port/name` pairs (`443/https`), and each is under `"443": {"https": {…}}` in ZGrab's
 * shape (`tls.certificate.parsed`, `get` for HTTP, `v2.banner` for SSH). One `service` event
 * per pair. v1 search results give the same members with dotted names (`"location.country"`):
 * they are read as nested ones.
 */
import type { Event } from '../../schema/index.js'
import { serviceDraft } from '../common/draft.js'
import { HeaderBuilder, restoreDashes } from '../common/headers.js'
import { httpSummary, titleOf } from '../common/http.js'
import { certificateCovers, dnsNamesOnly, ipVersion } from '../common/net.js'
import type { Unconvertible } from '../common/records.js'
import { productToken } from '../common/software.js'
import { validityTime } from '../common/time.js'
import { tlsVersion } from '../common/tls.js'
import { type Json, at, int, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { tlsSummary } from '../zgrab2/tls.js'
import { fillSshIdentity } from './service.js'

/** `{"location.country": …}` → `{"location": {"country": …}}`; other members as they are. */
function nested(h: Json): Json {
  if (!Object.keys(h).some((k) => k.includes('.'))) return h
  const out: Json = Object.create(null) as Json
  for (const [key, value] of Object.entries(h)) {
    const path = key.split('.')
    let at: Json = out
    for (const part of path.slice(0, -1)) at = (obj(at[part]) ?? (at[part] = Object.create(null) as Json)) as Json
    at[path[path.length - 1]!] = value
  }
  return out
}

/** One legacy host → one event per `protocols` entry, and reasons for the entries that cannot be. */
export function legacyHostEvents(record: Json, ctx: ConvertContext): (Event | Unconvertible)[] {
  const h = nested(record)
  const ip = str(h.ip).trim()
  if (ipVersion(ip) === 0) return [{ reason: `ip '${ip}' is not an IP address` }]
  const out: (Event | Unconvertible)[] = []
  for (const entry of Array.isArray(h.protocols) ? h.protocols : []) {
    const m = /^(\d+)\/(\S+)$/.exec(str(entry))
    if (!m) {
      out.push({ reason: `protocols: ${JSON.stringify(entry)} is not port/name` })
      continue
    }
    const [, port = '', name = ''] = m
    const e = serviceDraft(ip, port, h.updated_at, ctx)
    if ('reason' in e) {
      out.push({ reason: `${port}/${name}: ${e.reason}` })
      continue
    }
    const problem = fillLegacyService(e, name.toLowerCase(), obj(at(h, port, name)) ?? {})
    if (problem) {
      out.push({ reason: `${port}/${name}: ${problem.reason}` })
      continue
    }
    fillLegacyHost(e, h)
    out.push(e)
  }
  return out
}

function fillLegacyService(e: Event, name: string, s: Json): Unconvertible | undefined {
  const tls = obj(s.tls)
  const get = obj(s.get)
  const secure = tls !== undefined || name === 'https'
  e.transport = ['tcp']
  if (secure) e.transport.push('tls')
  if (get || name === 'http' || name === 'https') e.transport.push('http')
  e.protocol = name
  e.ssl.detected = secure
  e.ssl.enabled = secure
  e.summary = bannerOf(s)
  if (tls) {
    const problem = fillLegacyTls(e, tls)
    if (problem) return problem
    if (!get) e.summary = tlsSummary(e)
  }
  if (get) fillLegacyHttp(e, get)
  const v2 = obj(s.v2)
  if (v2) fillLegacySsh(e, v2)
  return undefined
}

/** `tls{version, cipher_suite{name}, certificate{parsed{…}}}`, ZGrab's certificate shape. */
function fillLegacyTls(e: Event, tls: Json): Unconvertible | undefined {
  e.ssl.version = tlsVersion(str(tls.version))
  e.ssl.cypher_suite = str(at(tls, 'cipher_suite', 'name'))
  const parsed = obj(at(tls, 'certificate', 'parsed'))
  if (!parsed) return undefined
  const cert = e.ssl.certificate
  cert.cn = strings(at(parsed, 'subject', 'common_name'))[0] ?? ''
  cert.issuer_name = strings(at(parsed, 'issuer', 'common_name'))[0] ?? ''
  cert.domain = dnsNamesOnly([...strings(at(parsed, 'extensions', 'subject_alt_name', 'dns_names')), ...strings(parsed.names)])
  const start = validityTime(at(parsed, 'validity', 'start'))
  const end = validityTime(at(parsed, 'validity', 'end'))
  if (!start.ok) return start
  if (!end.ok) return end
  cert.not_before = start.value
  cert.not_after = end.value
  const key = obj(parsed.subject_key_info) ?? {}
  const algorithm = str(at(key, 'key_algorithm', 'name')).toUpperCase()
  cert.key_algo = algorithm === 'EC' ? 'ECDSA' : algorithm
  cert.key_size = int(at(key, 'rsa_public_key', 'length')) ?? int(at(key, 'ecdsa_public_key', 'length')) ?? int(/\d+/.exec(str(at(key, 'ecdsa_public_key', 'curve')))?.[0]) ?? 0
  const sha256 = str(parsed.fingerprint_sha256).toLowerCase()
  cert.fingerprint = /^[0-9a-f]{64}$/.test(sha256) ? sha256 : ''
  return undefined
}

/** `get{status_code, status_line, title, headers{name: value, unknown: [{key, value}]}, body}`. */
function fillLegacyHttp(e: Event, get: Json): void {
  e.http.status = int(get.status_code) ?? 0
  e.http.title = (str(get.title) || titleOf(str(get.body))).replace(/\s+/g, ' ').trim()
  const headers = new HeaderBuilder()
  for (const [name, value] of Object.entries(obj(get.headers) ?? {})) {
    if (name === 'unknown' && Array.isArray(value)) {
      for (const entry of value) for (const v of strings(obj(entry)?.value)) headers.add(restoreDashes(str(obj(entry)?.key)), v)
      continue
    }
    for (const v of strings(value)) headers.add(restoreDashes(name), v)
  }
  e.http.header = headers.map
  e.http.length = int(headers.map['content-length']) ?? 0
  const statusLine = str(get.status_line) || (e.http.status ? String(e.http.status) : '')
  e.summary = httpSummary(`HTTP/1.1 ${statusLine}`.trim(), headers.lines(), e.http.title)
  const server = headers.map.server
  if (server) Object.assign(e.service.software, productToken(server))
}

/** `v2{banner{raw, version, software, comment}, server_host_key{fingerprint_sha256}}`. */
function fillLegacySsh(e: Event, v2: Json): void {
  const banner = obj(v2.banner) ?? {}
  const raw = str(banner.raw).trim()
  fillSshIdentity(e, raw, { version: str(banner.version), software: str(banner.software), comment: str(banner.comment) }, str(at(v2, 'server_host_key', 'fingerprint_sha256')))
  e.summary = raw
}

/** The service's banner text: a `banner` string at most two levels down (`ftp.banner.banner`). */
function bannerOf(s: Json, depth = 0): string {
  for (const [key, value] of Object.entries(s)) {
    if ((key === 'banner' || key === 'raw_banner') && typeof value === 'string') return value.trimEnd()
    const inner = obj(value)
    if (inner && depth < 2) {
      const found = bannerOf(inner, depth + 1)
      if (found !== '') return found
    }
  }
  return ''
}

/** `location`, `autonomous_system`, `tags`, `metadata.os` of the host. */
function fillLegacyHost(e: Event, h: Json): void {
  const place = obj(h.location) ?? {}
  e.geoip.continent_name = str(place.continent)
  e.geoip.country_name = str(place.country)
  e.geoip.country_iso_code = str(place.country_code)
  e.geoip.city_name = str(place.city)
  e.geoip.region_name = str(place.province)
  const lat = place.latitude
  const lon = place.longitude
  if (typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180) e.geoip.location = { lat, lon }
  const as = obj(h.autonomous_system) ?? {}
  e.network.asn = int(as.asn) ?? 0
  e.network.organization_name = str(as.name) || str(as.description)
  e.network.network = str(as.routed_prefix)
  if (e.service.software.os === '') e.service.software.os = str(at(h, 'metadata', 'os'))
  for (const tag of strings(h.tags)) pushUnique(e.tags, tag)
  e.ssl.certificate.valid = certificateCovers(e.host, [e.ssl.certificate.cn, ...e.ssl.certificate.domain])
}
