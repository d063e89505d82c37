/** Addresses, ports and URLs as recon tools write them. */
import { isIP } from 'node:net'
import type { Event } from '../../schema/index.js'

/** Well-known ports of URL schemes, for URLs that leave the port out. */
export const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  http: '80',
  https: '443',
  ws: '80',
  wss: '443',
  ftp: '21',
  ftps: '990',
  ssh: '22',
  sftp: '22',
  telnet: '23',
  smtp: '25',
  smtps: '465',
  imap: '143',
  imaps: '993',
  pop3: '110',
  pop3s: '995',
  ldap: '389',
  ldaps: '636',
  rtsp: '554',
  mysql: '3306',
  postgres: '5432',
  postgresql: '5432',
  redis: '6379',
  mongodb: '27017',
  rdp: '3389',
  vnc: '5900',
}

/** Schemes that run over TLS. */
export const TLS_SCHEMES: ReadonlySet<string> = new Set(['https', 'wss', 'ftps', 'smtps', 'imaps', 'pop3s', 'ldaps'])

/** Schemes that speak HTTP (so the event's transport gets `http`). */
export const HTTP_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss'])

const DOTTED = /^[0-9.]+$/

/** 4 or 6 for an IP literal (brackets allowed around IPv6), 0 otherwise. */
export const ipVersion = (text: string): 0 | 4 | 6 => ipKind(unbracket(text))

function ipKind(t: string): 0 | 4 | 6 {
  // No colon (so not IPv6) and not only digits and dots (so not IPv4): a name, without the
  // full checks (host names are the common case, and the IPv6 check is a long pattern).
  if (!t.includes(':') && !DOTTED.test(t)) return 0
  return isIP(t) as 0 | 4 | 6
}

/** `[2001:db8::1]` → `2001:db8::1`; anything else unchanged. */
export const unbracket = (text: string) => (text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text)

/** A decimal port 1–65535 (0 is not an open port), as its canonical string, or undefined. */
export function portText(value: unknown): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : ''
  if (!/^\d{1,5}$/.test(text)) return undefined
  const n = Number(text)
  return n >= 1 && n <= 65535 ? String(n) : undefined
}

const withoutFinalDot = (name: string) => (name.endsWith('.') ? name.slice(0, -1) : name)

/** Puts an address where it belongs: IP literals in `ip`, names in `host` (empty ignored). */
export function setAddress(event: Event, address: string): void {
  const a = unbracket(address.trim())
  if (a === '') return
  if (ipKind(a) !== 0) event.ip = a
  else event.host = withoutFinalDot(a.toLowerCase())
}

export type HostPort = { host: string; port: string } | { reason: string }

/** `ip:port`, `host:port` or `[v6]:port`. A bare IPv6 address with a port is ambiguous: refused. */
export function splitHostPort(text: string): HostPort {
  const t = text.trim()
  const bracketed = /^\[([^\]]*)\]:(\d+)$/.exec(t)
  if (bracketed) {
    const [, host = '', port = ''] = bracketed
    if (isIP(host) !== 6) return { reason: `'${host}' in brackets is not an IPv6 address` }
    const p = portText(port)
    return p ? { host, port: p } : { reason: `port '${port}' is not 1–65535` }
  }
  const colon = t.lastIndexOf(':')
  if (colon === -1) return { reason: 'no port (expected host:port, ip:port or [ipv6]:port)' }
  const host = t.slice(0, colon)
  const portPart = t.slice(colon + 1)
  if (host.includes(':')) return { reason: 'an IPv6 address with a port must be written in brackets: [ipv6]:port' }
  if (!isHostName(host) && !isIP(host)) return { reason: `'${clip(host)}' is not a host name or IP address` }
  const p = portText(portPart)
  return p ? { host, port: p } : { reason: `port '${clip(portPart)}' is not 1–65535` }
}

/** Letters, digits, `-`, `_` and dots (DNS labels as tools print them), 1–253 characters. */
export const isHostName = (text: string) => text.length > 0 && text.length <= 253 && /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/.test(text)

export interface UrlParts {
  scheme: string
  /** Host name or IP address, without brackets. */
  host: string
  /** Explicit port, else the scheme's default port, else ''. */
  port: string
  /** Path and query exactly as written (no dot-segment or escape rewriting); '/' when none. */
  path: string
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//

/**
 * An http(s) authority that the URL parser would give back unchanged: lower-case DNS labels,
 * the last one starting with a letter (so never read as an IPv4 number), no `--` (punycode
 * labels are checked by the parser), an optional port 1–65535 without leading zeros; then
 * the path, query, fragment or the end.
 */
const PLAIN_AUTHORITY = /^((?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*)(?::([1-9][0-9]{0,4}))?(?:[/?#]|$)/

/** The same for a dotted-quad IPv4 address in its canonical spelling (no leading zeros). */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])'
const PLAIN_IPV4_AUTHORITY = new RegExp(`^(${OCTET}(?:\\.${OCTET}){3})(?::([1-9][0-9]{0,4}))?(?:[/?#]|$)`)

/** parseUrl() for the common case, without the URL parser; undefined when it does not apply. */
function plainHttpUrl(scheme: string, rest: string): UrlParts | undefined {
  if (scheme !== 'http' && scheme !== 'https') return undefined
  const a = PLAIN_AUTHORITY.exec(rest) ?? PLAIN_IPV4_AUTHORITY.exec(rest)
  if (!a) return undefined
  const host = a[1]!
  const port = a[2]
  if (host.includes('--') || (port !== undefined && Number(port) > 65535)) return undefined
  return { scheme, host, port: port ?? DEFAULT_PORTS[scheme]!, path: rawPath(rest) }
}

/** Parses an absolute URL with an authority (`scheme://host…`), or undefined. */
export function parseUrl(text: string): UrlParts | undefined {
  const t = text.trim()
  const m = SCHEME.exec(t)
  if (!m) return undefined
  const plain = plainHttpUrl(m[1]!.toLowerCase(), t.slice(m[0].length))
  if (plain) return plain
  let url: URL
  try {
    url = new URL(t)
  } catch {
    return undefined
  }
  const scheme = m[1]!.toLowerCase()
  const host = unbracket(url.hostname)
  if (host === '') return undefined
  return { scheme, host, port: url.port !== '' ? url.port : (DEFAULT_PORTS[scheme] ?? ''), path: rawPath(t.slice(m[0].length)) }
}

/** The path and query of a URL's text after `scheme://`, as written: a scanner's matched path
 * such as `/cgi-bin/.%2e/.%2e/etc/passwd` must not be normalised into another one. */
function rawPath(rest: string): string {
  const start = rest.search(/[/?#]/)
  if (start === -1) return '/'
  const path = rest.slice(start).split('#')[0] ?? ''
  return path === '' ? '/' : path.startsWith('?') ? `/${path}` : path
}

/** True when `host` is covered by one of the certificate's names (`*.` covers one label). */
export function certificateCovers(host: string, names: readonly string[]): boolean {
  if (host === '') return false
  const h = withoutFinalDot(host.toLowerCase())
  return names.some((raw) => {
    const name = withoutFinalDot(raw.toLowerCase())
    if (name === h) return true
    if (!name.startsWith('*.')) return false
    const dot = h.indexOf('.')
    return dot > 0 && h.slice(dot + 1) === name.slice(2)
  })
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text)

/**
 * The DNS names of a certificate's names, without IP addresses, each once: `ssl.certificate.domain`
 * holds domain names (Censys lists a certificate's IP SANs among its `names`, and a SAN's DNS entry
 * may itself hold an IP literal such as `::1`). One rule for every converter.
 */
export function dnsNamesOnly(names: readonly string[]): string[] {
  // The common case, names only and each once, is returned as it is (a copy of nothing).
  let clean = true
  for (let i = 0; i < names.length && clean; i++) {
    const n = names[i]!
    clean = n !== '' && ipVersion(n) === 0 && names.indexOf(n) === i
  }
  return clean ? (names as string[]) : [...new Set(names.filter((n) => n !== '' && ipVersion(n) === 0))]
}
