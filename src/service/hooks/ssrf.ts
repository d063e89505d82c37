/**
 * The SSRF guard of hook deliveries (docs/hooks.md). An address is allowed only when ipaddr.js
 * classifies it as `unicast` (public); every other range (loopback, private, link-local with
 * 169.254.169.254, CGNAT, multicast, unspecified, reserved and documentation blocks, unique
 * local …) is refused. IPv4-mapped (`::ffff:a.b.c.d`), SIIT (`::ffff:0:a.b.c.d`) and NAT64
 * well-known-prefix (`64:ff9b::a.b.c.d`) addresses are judged by the IPv4 address they carry.
 * The same check runs at registration (on the URL's literal address, or every address its name
 * resolves to) and at connection time, inside the `lookup` of the request, on the addresses
 * the socket will connect to: a name that resolves elsewhere later (DNS rebinding) is caught.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import type { LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

/** Resolves a host name to its addresses (dns.lookup by default; tests give their own). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true })

const V4_CARRIERS = new Set(['ipv4Mapped', 'rfc6145'])

/** Why an address may not be a hook target, or null when it is a public unicast address. */
export function addressProblem(text: string): string | null {
  if (!ipaddr.isValid(text)) return `${text} is not an IP address`
  const address = ipaddr.parse(text)
  const range = address.range()
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6
    const bytes = v6.toByteArray()
    const carried = ipaddr.fromByteArray(bytes.slice(12))
    // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): ipaddr.js calls it unicast; never a target.
    if (range !== 'unspecified' && range !== 'loopback' && bytes.slice(0, 12).every((b) => b === 0)) {
      return `${text} is an IPv4-compatible address (::/96, deprecated) carrying ${carried.toString()}`
    }
    const nat64 = range === 'rfc6052' && v6.match(ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number])
    if (V4_CARRIERS.has(range) || nat64) {
      const inner = carried.range()
      return inner === 'unicast' ? null : `${text} carries the IPv4 address ${carried.toString()}, which is ${describe(inner)}`
    }
  }
  if (range === 'unicast') return null
  return `${text} is ${describe(range)}`
}

const NAMES: Record<string, string> = {
  unspecified: 'the unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'link-local (this covers 169.254.169.254, cloud metadata)',
  loopback: 'a loopback address',
  carrierGradeNat: 'in the carrier-grade NAT range (100.64.0.0/10)',
  private: 'a private address (RFC 1918)',
  reserved: 'in a reserved or documentation range',
  uniqueLocal: 'a unique local address (fc00::/7, private)',
}

function describe(range: string): string {
  return NAMES[range] ?? `not a public unicast address (range ${range})`
}

export interface GuardOptions {
  /** Lift the guard (tests, local use): every address is allowed. */
  allowPrivate: boolean
  resolve?: Resolver
}

/**
 * What can be said of a URL without resolving its name: not a URL, a scheme other than http(s),
 * a user:password part, or (unless private targets are allowed) a refused literal address.
 */
export function urlShapeProblem(text: string, allowPrivate: boolean): string | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return `${JSON.stringify(text)} is not an absolute URL`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the scheme must be http or https (got ${url.protocol.slice(0, -1)})`
  if (url.username !== '' || url.password !== '') return 'the URL may not hold a user name or password'
  if (allowPrivate) return null
  const host = bareHost(url.hostname)
  return ipaddr.isValid(host) ? refused(addressProblem(host)) : null
}

/**
 * Why a URL may not be a hook target, or null: urlShapeProblem, then, unless private targets
 * are allowed, every address its name resolves to now.
 */
export async function urlProblem(text: string, options: GuardOptions): Promise<string | null> {
  const shape = urlShapeProblem(text, options.allowPrivate)
  if (shape !== null || options.allowPrivate) return shape
  const host = bareHost(new URL(text).hostname)
  if (ipaddr.isValid(host)) return null
  let addresses: { address: string }[]
  try {
    addresses = await (options.resolve ?? systemResolver)(host)
  } catch (error) {
    return `the host name ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`
  }
  if (addresses.length === 0) return `the host name ${host} does not resolve`
  for (const { address } of addresses) {
    const problem = addressProblem(address)
    if (problem !== null) return refused(`${host} resolves to ${problem}`)
  }
  return null
}

const refused = (problem: string | null) =>
  problem === null ? null : `refused target: ${problem}; hooks may only reach public addresses (the service option allow_private_hooks lifts this)`

/** `[::1]` → `::1` (URL.hostname keeps IPv6 brackets). */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}

/**
 * A `lookup` for http.request that resolves with `resolve` and keeps only allowed addresses, so
 * the socket can only connect to one of them; when none is left the request fails with
 * `refused address …`. With `allowPrivate` it only resolves.
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  const resolve = options.resolve ?? systemResolver
  return ((hostname: string, opts: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (found) => {
        const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0)
        const wanted = found.filter((a) => family === 0 || a.family === family)
        const allowed = options.allowPrivate ? wanted : wanted.filter((a) => addressProblem(a.address) === null)
        if (allowed.length === 0) {
          const why = wanted.length === 0 ? `${hostname} has no address` : `refused address: ${hostname} resolves to ${addressProblem(wanted[0]!.address)}`
          const error = Object.assign(new Error(why), { code: wanted.length === 0 ? 'ENOTFOUND' : 'EREFUSEDADDRESS' })
          return callback(error)
        }
        if (opts.all) callback(null, allowed.map((a) => ({ address: a.address, family: a.family })))
        else callback(null, allowed[0]!.address, allowed[0]!.family)
      },
      (error: unknown) => callback(error),
    )
  }) as unknown as LookupFunction
}
