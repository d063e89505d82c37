/** Arbitraries of network names: domain names, IPv4/IPv6 addresses (and other spellings of them), MACs, CIDRs. */
import fc, { type Arbitrary } from 'fast-check'

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'
const ALNUM = LETTERS + '0123456789'

const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet.split('')), { minLength: min, maxLength: max }).map((cs) => cs.join(''))

/** One DNS label: lower-case letters, digits and inner hyphens, 1–63 characters (kept short by default). */
export function label(maxLength = 12): Arbitrary<string> {
  const edge = chars(ALNUM, 1, 1)
  const inner = chars(ALNUM + '-', 0, Math.max(0, maxLength - 2))
  return fc.oneof(
    { weight: 1, arbitrary: edge },
    { weight: 4, arbitrary: fc.tuple(edge, inner, edge).map(([a, b, c]) => a + b + c) },
  )
}

const TLDS = ['com', 'net', 'org', 'io', 'dev', 'fr', 'de', 'co', 'uk', 'example', 'test'] as const

export interface DomainOptions {
  /** Number of labels before the top-level one (default 1–3). */
  minLabels?: number
  maxLabels?: number
  /** Longest label (default 12; 63 is the DNS limit). */
  maxLabelLength?: number
}

/** A lower-case, fully qualified domain name without trailing dot, such as `mail-2.example.com`. */
export function domainName(options: DomainOptions = {}): Arbitrary<string> {
  const { minLabels = 1, maxLabels = 3, maxLabelLength = 12 } = options
  const tld = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TLDS) }, { weight: 1, arbitrary: chars(LETTERS, 2, 6) })
  return fc
    .tuple(fc.array(label(maxLabelLength), { minLength: minLabels, maxLength: maxLabels }), tld)
    .map(([labels, top]) => [...labels, top].join('.'))
    .filter((name) => name.length <= 253)
}

/** A subdomain of `domain`: one to three labels in front of it. */
export function subdomainOf(domain: string, maxLabels = 3): Arbitrary<string> {
  return fc.array(label(), { minLength: 1, maxLength: maxLabels }).map((labels) => `${labels.join('.')}.${domain}`)
}

const octet = fc.integer({ min: 0, max: 255 })

/** A dotted-quad IPv4 address in its one canonical spelling (`192.0.2.7`). */
export function ipv4(): Arbitrary<string> {
  return fc.tuple(octet, octet, octet, octet).map((parts) => parts.join('.'))
}

/** The eight 16-bit groups of an IPv6 address, biased towards runs of zeros (so `::` shows up). */
function ipv6Groups(): Arbitrary<number[]> {
  const group = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 0, max: 0xffff }) })
  return fc.array(group, { minLength: 8, maxLength: 8 })
}

/**
 * RFC 5952 text of eight groups: lower case, no leading zeros, the longest run (≥ 2) of
 * zero groups as `::`, and IPv4-mapped addresses with their dotted tail (`::ffff:192.0.2.1`, §5).
 */
export function ipv6Canonical(groups: number[]): string {
  if (groups.slice(0, 6).join() === '0,0,0,0,0,65535') {
    return `::ffff:${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`
  }
  let best = -1
  let bestLength = 1
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > bestLength) {
      best = i
      bestLength = j - i
    }
    i = j
  }
  const hex = groups.map((g) => g.toString(16))
  if (best < 0) return hex.join(':')
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`
}

/** An IPv6 address in its canonical (RFC 5952) spelling. */
export function ipv6(): Arbitrary<string> {
  return ipv6Groups().map(ipv6Canonical)
}

/** An address and one way of writing it; `text` may differ from `canonical` only in spelling. */
export interface Spelled {
  canonical: string
  text: string
}

/**
 * IPv6 addresses with other valid spellings: upper-case hex, leading zeros, no or a
 * shorter `::`, and (for the IPv4-mapped range) the dotted tail.
 */
export function ipv6Spelling(): Arbitrary<Spelled> {
  const mapped = fc.tuple(octet, octet, octet, octet).map((o) => [0, 0, 0, 0, 0, 0xffff, (o[0]! << 8) | o[1]!, (o[2]! << 8) | o[3]!])
  const groups = fc.oneof({ weight: 4, arbitrary: ipv6Groups() }, { weight: 1, arbitrary: mapped })
  return fc
    .tuple(groups, fc.boolean(), fc.boolean(), fc.constantFrom('canonical', 'full', 'first-run', 'dotted'))
    .map(([g, upper, pad, form]) => {
      const canonical = ipv6Canonical(g)
      const hex = g.map((x) => (pad ? x.toString(16).padStart(4, '0') : x.toString(16)))
      let text: string
      if (form === 'full') text = hex.join(':')
      else if (form === 'first-run') text = compressFirstRun(g, hex)
      else if (form === 'dotted' && g.slice(0, 6).join() === '0,0,0,0,0,65535') {
        text = `::${hex[5]}:${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`
      } else text = canonical
      return { canonical, text: upper ? text.toUpperCase() : text }
    })
}

/** `::` over the first run of zero groups (even a single one), which RFC 5952 would not choose. */
function compressFirstRun(groups: number[], hex: string[]): string {
  const start = groups.indexOf(0)
  if (start < 0) return hex.join(':')
  let end = start
  while (end < 8 && groups[end] === 0) end++
  return `${hex.slice(0, start).join(':')}::${hex.slice(end).join(':')}`
}

/**
 * IPv4 addresses with their spellings. The only other spelling taken as the same address
 * is the IPv4-mapped IPv6 form `::ffff:a.b.c.d`; legacy forms with leading zeros or hex
 * are ambiguous (octal in some parsers) and not generated.
 */
export function ipv4Spelling(): Arbitrary<Spelled> {
  return fc.tuple(ipv4(), fc.boolean(), fc.boolean()).map(([canonical, mapped, upper]) => ({
    canonical,
    text: mapped ? `::${upper ? 'FFFF' : 'ffff'}:${canonical}` : canonical,
  }))
}

/** A MAC address as scanners write it (`00:1a:2b:3c:4d:5e`). */
export function macAddress(): Arbitrary<string> {
  const byte = fc.integer({ min: 0, max: 255 }).map((b) => b.toString(16).padStart(2, '0'))
  return fc.array(byte, { minLength: 6, maxLength: 6 }).map((bs) => bs.join(':'))
}

/** An IPv4 network in CIDR notation (`198.51.100.0/24`). */
export function cidr(): Arbitrary<string> {
  return fc.tuple(ipv4(), fc.integer({ min: 8, max: 32 })).map(([ip, bits]) => `${ip}/${bits}`)
}
