/**
 * One Shodan record → events: a banner gives one `service` event (and a `leak` event per
 * verified vulnerability, vulns.ts); a host look-up gives one per banner of its `data[]`,
 * host members filling what a banner leaves out; search results one per `matches[]` entry.
 */
import type { Event } from '../../schema/index.js'
import { serviceDraft } from '../common/draft.js'
import { ipVersion, setAddress } from '../common/net.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import { type Json, at, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { fillHttp } from './http.js'
import { fillPlace } from './place.js'
import { fillSoftware } from './software.js'
import { fillSsh, fillSsl } from './tls.js'
import { vulnEvents } from './vulns.js'

/** A banner, a host look-up (`data` is an array) or search results (`matches`). */
export function mapShodan(r: Json, ctx: ConvertContext): Mapped {
  if (Array.isArray(r.data)) return listed(r.data, 'data', r, ctx)
  if (Array.isArray(r.matches)) return listed(r.matches, 'matches', undefined, ctx)
  return banner(r, undefined, ctx)
}

function listed(list: unknown[], member: string, host: Json | undefined, ctx: ConvertContext): (Event | Unconvertible)[] {
  const out: (Event | Unconvertible)[] = []
  list.forEach((item, i) => {
    const b = obj(item)
    const mapped = b ? banner(b, host, ctx) : { reason: 'expected a banner object' }
    for (const one of Array.isArray(mapped) ? mapped : [mapped]) out.push('reason' in one ? { reason: `${member}[${i}]: ${one.reason}` } : one)
  })
  return out
}

/** One banner → its service event and the leak events of its verified vulnerabilities. */
function banner(b: Json, host: Json | undefined, ctx: ConvertContext): Event | (Event | Unconvertible)[] | Unconvertible {
  const ip = bannerIp(b) || bannerIp(host ?? {})
  if (ip === '') return { reason: 'no address (expected ip_str, ipv6 or ip)' }
  if (ipVersion(ip) === 0) return { reason: `ip_str '${ip}' is not an IP address` }
  // Shodan writes UTC without a zone, with microseconds: `2024-05-01T12:34:56.789012`.
  const e = serviceDraft(ip, b.port, utc(b.timestamp ?? host?.last_update), ctx)
  if ('reason' in e) return e
  const name = strings(b.hostnames)[0] ?? strings(host?.hostnames)[0]
  if (name) setAddress(e, name)

  const transport = str(b.transport).toLowerCase()
  e.transport = [transport === 'udp' ? 'udp' : 'tcp']
  const ssl = obj(b.ssl)
  const http = obj(b.http)
  const ssh = obj(b.ssh)
  if (ssl) e.transport.push('tls')
  if (http) e.transport.push('http')
  e.protocol = protocolOf(str(at(b, '_shodan', 'module')), ssl !== undefined, http !== undefined, ssh !== undefined)
  if (e.protocol === 'https' && !ssl) {
    // The https module spoke TLS even when the handshake details are missing.
    e.transport.splice(1, 0, 'tls')
    e.ssl.detected = true
    e.ssl.enabled = true
  }

  const data = str(b.data)
  e.summary = data.trimEnd()
  if (http) fillHttp(e, http, data)
  if (ssl) {
    const problem = fillSsl(e, ssl)
    if (problem) return problem
  }
  if (ssh) fillSsh(e, ssh, data)
  fillSoftware(e, b)
  fillPlace(e, b, host)
  // A host look-up's tags (`cloud`, `vpn`, …) are about the host: every banner of it gets them.
  for (const tag of [...strings(b.tags), ...strings(host?.tags)]) pushUnique(e.tags, tag)
  const vulns = obj(b.vulns)
  if (!vulns) return e
  return [e, ...vulnEvents(e, vulns)]
}

/** `ip_str`, else `ipv6`, else the integer `ip` as a dotted quad. */
function bannerIp(b: Json): string {
  const text = str(b.ip_str) || str(b.ipv6)
  if (text !== '') return text.trim()
  const n = b.ip
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff) return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.')
  return ''
}

const ZONELESS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?$/

/** A zone-less timestamp is UTC: give it its `Z`. */
const utc = (value: unknown) => (typeof value === 'string' && ZONELESS.test(value.trim()) ? `${value.trim()}Z` : value)

/**
 * The event's protocol from Shodan's module name (`https`, `http-simple-new`, `ssh`,
 * `mongodb`, `auto`, …): its first word, lower-case; `auto` and an absent module fall back to
 * what the banner holds.
 */
function protocolOf(module: string, ssl: boolean, http: boolean, ssh: boolean): string {
  const word = /^[a-z0-9]+/i.exec(module.trim())?.[0]?.toLowerCase() ?? ''
  if (word !== '' && word !== 'auto') return word === 'http' && ssl ? 'https' : word
  if (http) return ssl ? 'https' : 'http'
  if (ssh) return 'ssh'
  return ssl ? 'tls' : ''
}
