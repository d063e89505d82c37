/**
 * IP addresses and CIDR ranges compared as addresses. Spellings are read as the service reads
 * them (names/ip.ts): an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the IPv4 address,
 * and so is a range inside `::ffff:0:0/96` with a prefix of 96 or more (`::ffff:10.0.0.0/104`
 * is `10.0.0.0/8`). Any other IPv6 range holds IPv6 addresses only. Bits after the prefix are
 * ignored (`10.1.2.3/8` is `10.0.0.0/8`).
 */
import { canonicalIp } from '../names/ip.js'

export interface AddressRange {
  family: 4 | 6
  /** The network's bytes (4 or 16), bits after the prefix cleared. */
  bytes: Uint8Array
  prefix: number
  /** Canonical text: the address alone for a single address, else `network/prefix`. */
  text: string
}

/** An address or a CIDR range, or null when the text is neither. */
export function parseRange(text: string): AddressRange | null {
  const slash = text.indexOf('/')
  const addressText = slash === -1 ? text : text.slice(0, slash)
  const canonical = canonicalIp(addressText)
  if (canonical === null) return null
  const bytes = addressBytes(canonical)!
  const family = bytes.length === 4 ? 4 : 6
  if (slash === -1) return { family, bytes, prefix: bytes.length * 8, text: canonical }
  const mapped = canonical.indexOf(':') === -1 && addressText.indexOf(':') !== -1
  let prefix = family === 4 ? 32 : 128
  const digits = text.slice(slash + 1)
  if (!/^\d{1,3}$/.test(digits)) return null
  prefix = Number(digits)
  if (mapped) {
    // A mapped spelling: the prefix counts the 96 bits before the IPv4 part.
    if (prefix > 128) return null
    if (prefix < 96) return masked(new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes]), prefix, 6)
    prefix -= 96
  } else if (prefix > (family === 4 ? 32 : 128)) return null
  return masked(bytes, prefix, family)
}

function masked(bytes: Uint8Array, prefix: number, family: 4 | 6): AddressRange {
  const out = new Uint8Array(bytes)
  for (let bit = prefix; bit < out.length * 8; bit++) out[bit >> 3]! &= ~(0x80 >> (bit & 7))
  const full = prefix === out.length * 8
  const address = formatBytes(out)
  return { family, bytes: out, prefix, text: full ? address : `${address}/${prefix}` }
}

/** True when `bytes` (an address) lies in `range`. */
export function inRange(bytes: Uint8Array, range: AddressRange): boolean {
  if (bytes.length !== range.bytes.length) return false
  const whole = range.prefix >> 3
  for (let i = 0; i < whole; i++) if (bytes[i] !== range.bytes[i]) return false
  const rest = range.prefix & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return (bytes[whole]! & mask) === range.bytes[whole]
}

/** The bytes (4 or 16) of a canonical address (as canonicalIp writes it). */
export function addressBytes(canonical: string): Uint8Array | null {
  if (canonical.indexOf(':') === -1) {
    const parts = canonical.split('.')
    return parts.length === 4 ? new Uint8Array(parts.map(Number)) : null
  }
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined]
  const left = head === '' ? [] : head!.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
  const out = new Uint8Array(16)
  groups.forEach((g: string, i) => {
    const n = parseInt(g, 16)
    out[2 * i] = n >> 8
    out[2 * i + 1] = n & 255
  })
  return out
}

/** Canonical text of 4 or 16 bytes. */
function formatBytes(bytes: Uint8Array): string {
  if (bytes.length === 4) return bytes.join('.')
  const groups: string[] = []
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return canonicalIp(groups.join(':'))!
}

/** The event's address as the service finds it: `ip`, or `host` when `ip` is empty and `host` is an address. */
export function eventAddress(ip: unknown, host: unknown): string | null {
  if (typeof ip !== 'string') return null
  if (ip !== '') return canonicalIp(ip)
  return typeof host === 'string' && host !== '' ? canonicalIp(host) : null
}
