/**
 * One Shodan record → events: a banner gives one `service` event (and a `leak` event per
 * verified vulnerability, vulns.ts); a host look-up gives one per banner of its `data[]`,
 * host members filling what a banner leaves out; search results one per `matches[]` entry.
 */
import type { Event } from '../../schema/index.js'
import { serviceDraft } from '../common/draft.js'
import { ipVersion, setAddress } from '../common/net.js'
import { attachProtocols } from '../common/protocols.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import { type Json, at, obj, pushUnique, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { fillHttp, isHttpResponse } from './http.js'
import { fillPlace } from './place.js'
import { shodanProtocols } from './protocols.js'
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
  const data = str(b.data)
  // An HTTP answer is HTTP with or without Shodan's `http` member (some modules give only `data`).
  const http = obj(b.http) ?? (isHttpResponse(data) ? undefined : null)
  const ssh = obj(b.ssh)
  const module = str(at(b, '_shodan', 'module'))
  // TLS when Shodan recorded a handshake (`ssl`), or when its https module got an answer that
  // is not plain HTTP (a TLS alert). An https module answered in plain HTTP on a port without
  // TLS is HTTP: nothing says TLS was spoken.
  const tls = ssl !== undefined || (/^https\b/i.test(module.trim()) && !isHttpResponse(data))
  if (tls) e.transport.push('tls')
  if (http !== null) e.transport.push('http')
  e.protocol = protocolOf(module, tls, http !== null, ssh !== undefined)
  if (tls && !ssl) {
    e.ssl.detected = true
    e.ssl.enabled = true
  }

  e.summary = data.trimEnd()
  if (http !== null) fillHttp(e, http, data)
  if (ssl) {
    const problem = fillSsl(e, ssl)
    if (problem) return problem
  }
  if (ssh) fillSsh(e, ssh, data)
  attachProtocols(e, shodanProtocols(b, e.protocol, data))
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
 * Words in Shodan's module names that say how it probed, not what it found (`https-simple-new`,
 * `dns-udp`, `rtsp-tcp`): dropped from the end of the name.
 */
const PROBE_WORDS = new Set(['simple', 'new', 'old', 'tcp', 'udp'])

/**
 * The event's protocol from Shodan's module name (`https`, `http-simple-new`, `ssh`,
 * `mongodb`, `language-server-protocol`, `auto`, …): the name lower-case, without the trailing
 * words that name the probe; `https` only with TLS (an `http…` module with TLS is `https`);
 * `auto` and an absent module fall back to what the banner holds.
 */
function protocolOf(module: string, ssl: boolean, http: boolean, ssh: boolean): string {
  const words = module.trim().toLowerCase().split('-').filter((w) => /^[a-z0-9_.]+$/.test(w))
  while (words.length > 1 && PROBE_WORDS.has(words[words.length - 1]!)) words.pop()
  const name = words.join('-')
  if (name !== '' && name !== 'auto') {
    if (name === 'https' || name === 'http') return ssl ? 'https' : 'http'
    return name
  }
  if (http) return ssl ? 'https' : 'http'
  if (ssh) return 'ssh'
  return ssl ? 'tls' : ''
}
