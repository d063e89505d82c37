/**
 * What the search box's text asks for, in this order: a URL (its host: an address's host page,
 * with the URL's port when it names one, or a name's domain page), an address with a port
 * (`192.0.2.1:8080`, `[2001:db8::1]:443`: the host page limited to that port), an address, a
 * host name with at least one dot (`example.com`, `example.com:8443`: the domain page; a port
 * does not narrow a domain page), and anything else a query of the search language
 * (docs/search.md), answered by the results page; a CIDR block (`192.0.2.0/24`) is the query
 * `ip:192.0.2.0/24` and an AS number (`AS64500`) `asn:64500`. A single word (`nginx`) is a query, not a
 * name: write `host:nginx` for that.
 */
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import { parseRange } from '../../query/address.js'

export type BoxTarget =
  | { kind: 'host'; ip: string; port: string }
  | { kind: 'domain'; name: string }
  /** `read`: the box's text was rewritten into this query (a CIDR block, an AS number); the page says so. */
  | { kind: 'query'; text: string; read?: string }

const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i
const V4_PORT = /^(\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5})$/
const V6_PORT = /^\[([0-9a-fA-F:.]+)\]:(\d{1,5})$/
const NAME_PORT = /^([^\s:/]+\.[^\s:/]+?)\.?(?::(\d{1,5}))?$/

/** The page the box's text leads to. `text` is as typed; surrounding white space is ignored. */
export function boxTarget(text: string): BoxTarget {
  const q = text.trim()
  if (URL_START.test(q)) {
    const url = parseUrl(q)
    if (url !== null) {
      const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
      const ip = canonicalIp(host)
      if (ip !== null) return { kind: 'host', ip, port: url.port }
      const name = canonicalDomain(host)
      if (name !== null) return { kind: 'domain', name }
    }
  }
  const withPort = V4_PORT.exec(q) ?? V6_PORT.exec(q)
  if (withPort !== null && validPort(withPort[2]!)) {
    const ip = canonicalIp(withPort[1]!)
    if (ip !== null) return { kind: 'host', ip, port: String(Number(withPort[2])) }
  }
  const ip = canonicalIp(q)
  if (ip !== null) return { kind: 'host', ip, port: '' }
  const named = NAME_PORT.exec(q)
  if (named !== null && (named[2] === undefined || validPort(named[2]))) {
    const name = canonicalDomain(named[1]!)
    if (name !== null && canonicalIp(named[1]!) === null) return { kind: 'domain', name }
  }
  // A CIDR block is an address search, `AS64500` a network's: as `ip:` and `asn:` would ask.
  const slash = q.indexOf('/')
  if (slash > 0 && /^\d{1,3}$/.test(q.slice(slash + 1)) && parseRange(q) !== null) return { kind: 'query', text: `ip:${q}`, read: q }
  const as = /^AS(\d{1,10})$/i.exec(q)
  if (as !== null && Number(as[1]) <= 4294967295) return { kind: 'query', text: `asn:${Number(as[1])}`, read: q }
  return { kind: 'query', text: q }
}

const validPort = (text: string) => Number(text) <= 65535

function parseUrl(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}
