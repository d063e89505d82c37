/**
 * One Censys record → one `service` event per entry of `services[]`. Host members (address,
 * names, location, autonomous system, labels) are shared by the host's events; the service
 * gives port, transport, protocol, time, banner, software and the HTTP, TLS and SSH details
 * (service.ts).
 */
import type { Event } from '../../schema/index.js'
import { serviceDraft } from '../common/draft.js'
import { certificateCovers, ipVersion, isHostName, parseUrl, setAddress } from '../common/net.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import { type Json, at, int, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { legacyHostEvents } from './legacy.js'
import { fillService } from './service.js'

/** A host, `{code, status, result: host}`, or `{…, result: {hits: [hosts]}}` (a search page). */
export function mapCensys(r: Json, ctx: ConvertContext): Mapped {
  if (r.result !== undefined || (r.code !== undefined && r.ip === undefined)) {
    const code = int(r.code)
    const result = obj(r.result)
    if (!result) return { reason: `Censys answered ${code ?? '?'} ${str(r.status)}${str(r.error) ? `: ${str(r.error)}` : ''} (no result)`.trim() }
    if (Array.isArray(result.hits)) {
      const out: (Event | Unconvertible)[] = []
      result.hits.forEach((hit, i) => {
        const host = obj(hit)
        if (!host) out.push({ reason: `result.hits[${i}]: expected a host object` })
        else for (const one of hostEvents(host, ctx)) out.push('reason' in one ? { reason: `result.hits[${i}]: ${one.reason}` } : one)
      })
      return out
    }
    return hostEvents(result, ctx)
  }
  return hostEvents(r, ctx)
}

function hostEvents(h: Json, ctx: ConvertContext): (Event | Unconvertible)[] {
  if (Array.isArray(h.protocols) && h.services === undefined) return legacyHostEvents(h, ctx)
  const ip = str(h.ip).trim()
  if (ip === '') return [{ reason: 'no ip: not a Censys host' }]
  if (ipVersion(ip) === 0) return [{ reason: `ip '${ip}' is not an IP address` }]
  if (h.services !== undefined && !Array.isArray(h.services)) return [{ reason: 'services: expected an array' }]
  const services = (h.services ?? []) as unknown[]
  const host = services.length > 0 ? hostFacts(h) : undefined
  return services.map((value, i) => {
    const s = obj(value)
    if (!s) return { reason: `services[${i}]: expected an object` }
    const e = serviceEvent(h, host!, ip, s, ctx)
    return 'reason' in e ? { reason: `services[${i}]: ${e.reason}` } : e
  })
}

/** What every service of a host shares, read once per host. */
interface HostFacts {
  /** The name Censys scanned the host by (a virtual host's `name`), else undefined. */
  target: string | undefined
  /** A forward name the host's certificates prove (see hostName()), else undefined. */
  name: string | undefined
  reverse: string
  os: string
  labels: string[]
  place: Place
}

function hostFacts(h: Json): HostFacts {
  const target = str(h.name).trim()
  return {
    target: isHostName(target) && ipVersion(target) === 0 ? target : undefined,
    name: hostName(h),
    reverse: (strings(at(h, 'dns', 'reverse_dns', 'names'))[0] ?? '').replace(/\.$/, '').toLowerCase(),
    os: str(at(h, 'operating_system', 'product')),
    labels: labels(h.labels),
    place: placeOf(h),
  }
}

function serviceEvent(h: Json, host: HostFacts, ip: string, s: Json, ctx: ConvertContext): Event | Unconvertible {
  const e = serviceDraft(ip, s.port, s.observed_at ?? h.last_updated_at, ctx)
  if ('reason' in e) return e
  // The name the service was scanned by, else a forward name its host's certificates prove;
  // never a forward name alone (any zone may point a name at any address).
  const name = host.target ?? requestName(s) ?? host.name
  if (name) setAddress(e, name)
  e.reverse = host.reverse
  fillService(e, s, host.os)
  fillPlace(e, host.place)
  for (const label of host.labels) pushUnique(e.tags, label)
  for (const label of labels(s.labels)) pushUnique(e.tags, label)
  return e
}

/** A URI's host when it is written as a name (an address, bracketed or dotted, is not one). */
const URI_NAME = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)\.?(?:[:/?#]|$)/i

/** The host of the service's HTTP request URI, when it is a name (Censys scanned the service by it). */
function requestName(s: Json): string | undefined {
  const host = URI_NAME.exec(str(at(s, 'http', 'request', 'uri')))?.[1]
  // Most URIs hold the address: not a name (a name has a letter in its last label).
  return host && !/^[0-9.]+$/.test(host) ? parseUrl(str(at(s, 'http', 'request', 'uri')))?.host : undefined
}

/**
 * The host's name when nothing names the service itself: the first of `dns.names` (names
 * whose address records point here) that a certificate of the host's services covers (the
 * server proves it serves that name). `dns.names` alone can hold any zone's names pointed at
 * the address (1.1.1.1 has hundreds): those never become `host`.
 */
function hostName(h: Json): string | undefined {
  const forward = strings(at(h, 'dns', 'names'))
  if (forward.length === 0 || !Array.isArray(h.services)) return undefined
  const proven: string[] = []
  for (const s of h.services) {
    const leaf = obj(at(s, 'tls', 'certificates', 'leaf_data'))
    if (!leaf) continue
    proven.push(...strings(leaf.names), ...strings(at(leaf, 'subject', 'common_name')))
  }
  if (proven.length === 0) return undefined
  return forward.find((name) => isHostName(name.replace(/\.$/, '')) && certificateCovers(name, proven))
}

/** `location` → `geoip`, `autonomous_system` → `network`: the values, read once per host. */
interface Place {
  continent: string
  country: string
  countryCode: string
  city: string
  province: string
  location: { lat: number; lon: number } | undefined
  asn: number
  organization: string
  network: string
}

function placeOf(h: Json): Place {
  const place = obj(h.location) ?? {}
  const lat = at(place, 'coordinates', 'latitude')
  const lon = at(place, 'coordinates', 'longitude')
  const as = obj(h.autonomous_system) ?? {}
  return {
    continent: str(place.continent),
    country: str(place.country),
    countryCode: str(place.country_code),
    city: str(place.city),
    province: str(place.province),
    location: typeof lat === 'number' && typeof lon === 'number' && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined,
    asn: int(as.asn) ?? int(str(as.asn).replace(/^AS/i, '')) ?? 0,
    organization: str(as.name) || str(as.description),
    network: str(as.bgp_prefix),
  }
}

function fillPlace(e: Event, place: Place): void {
  const geo = e.geoip
  geo.continent_name = place.continent
  geo.country_name = place.country
  geo.country_iso_code = place.countryCode
  geo.city_name = place.city
  geo.region_name = place.province
  // Each event its own object: events are documents of their own.
  if (place.location) geo.location = { lat: place.location.lat, lon: place.location.lon }
  e.network.asn = place.asn
  e.network.organization_name = place.organization
  e.network.network = place.network
}

/** Labels as strings (`["login-page"]`) or objects (`[{"value": "login-page"}]`). */
const labels = (value: unknown): string[] => (Array.isArray(value) ? value.map((l) => (typeof l === 'string' ? l : str(obj(l)?.value))).filter((l) => l !== '') : [])
