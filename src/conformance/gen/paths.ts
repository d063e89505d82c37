/** Arbitraries of request targets for the three lookups: known names, unknown ones, and hostile path segments. */
import fc, { type Arbitrary } from 'fast-check'
import { domainName, ipv4, ipv6, label } from './net.js'

/**
 * Valid addresses no server should hold events for: the benchmarking range 198.18.0.0/15
 * (RFC 2544) and the IPv6 discard prefix 100::/64 (RFC 6666). Not the documentation ranges
 * (192.0.2.0/24, 2001:db8::/32): test data, ours included, lives there.
 */
export function unknownIp(): Arbitrary<string> {
  const octet = fc.integer({ min: 1, max: 254 })
  const v4 = fc.tuple(fc.constantFrom(18, 19), octet, octet).map(([b, c, d]) => `198.${b}.${c}.${d}`)
  const v6 = fc.integer({ min: 1, max: 0xffff }).map((n) => `100::${n.toString(16)}`)
  return fc.oneof(v4, v6)
}

/** Well-formed domain names under the reserved `.test` TLD (RFC 2606), held by no real server. */
export function unknownDomain(): Arbitrary<string> {
  return fc.array(label(10), { minLength: 1, maxLength: 2 }).map((labels) => `l9kit-${labels.join('.')}.test`)
}

/** The longest valid name (253 characters, labels of 63): servers must not choke on it. */
export const LONGEST_DOMAIN = [61, 63, 63, 63].map((n, i) => String.fromCharCode(97 + i).repeat(n)).join('.')

/** Path segments no server should answer with a 5xx: malformed names, Unicode, dot segments, encoded NULs, huge ones. */
export const HOSTILE_SEGMENTS = [
  LONGEST_DOMAIN,
  `${'a'.repeat(64)}.com`,
  `${'x'.repeat(300)}.com`,
  'a'.repeat(2000),
  '%00',
  'example.com%00',
  '..',
  '%2e%2e',
  '%2F',
  '%ZZ',
  '256.256.256.256',
  '1.2.3',
  '::1::',
  '[::1]',
  '-example.com',
  'example..com',
  '\u00fcnic\u00f6de.example',
  '\u{1F600}',
  '<script>',
  "' OR 1=1 --",
  ' ',
]

/** One raw (already encoded or not) segment: hostile, valid, or random printable text. */
export function anySegment(): Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 2, arbitrary: ipv4() },
    { weight: 1, arbitrary: ipv6() },
    { weight: 2, arbitrary: domainName({ maxLabelLength: 63 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }) },
  )
}

export const ROUTES = ['/host/', '/domain/', '/api/subdomains/'] as const
export type Route = (typeof ROUTES)[number]

/**
 * A path for a raw segment: `%XX` escapes are sent as written (to test the server's
 * decoding); `/`, `?`, `#`, `\` and stray `%` are escaped so the segment stays one segment;
 * the URL parser encodes the rest.
 */
export function rawPath(route: Route, raw: string): string {
  return route + raw.replace(/%(?![0-9a-fA-F]{2})|[/?#\\]/g, (c) => encodeURIComponent(c))
}
