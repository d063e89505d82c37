/** fast-check arbitraries for addresses and ports, shared by the converter property tests. */
import fc from 'fast-check'
import { hostportOutput, isSkip } from '../../src/convert/output/index.js'
import type { Event } from '../../src/schema/index.js'

export const ipv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((p) => p.join('.'))

/** IPv6 in its compressed form (as tools print it). */
export const ipv6 = fc
  .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
  .map((groups) => new URL(`http://[2001:db8:${groups.slice(2).map((g) => g.toString(16)).join(':')}]/`).hostname.slice(1, -1))

export const ip = fc.oneof(ipv4, ipv6)
export const port = fc.integer({ min: 1, max: 65535 })

export const hostName = fc
  .tuple(fc.constantFrom('www', 'api', 'mail', 'dev', 'vpn', 'a-b'), fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.constantFrom('com', 'net', 'org', 'io'))
  .map(([a, b, c]) => `${a}.${b}.${c}`)

/** `ip:port` as the hostport output writes it (IPv6 bracketed). */
export const hostport = (address: string, p: number | string) => (address.includes(':') ? `[${address}]:${p}` : `${address}:${p}`)

/** What `--to hostport` writes for these events (events it skips leave no line). */
export function writeHostports(events: readonly Event[]): string[] {
  return events.flatMap((e) => {
    const text = hostportOutput.format(e)
    return isSkip(text) ? [] : [text]
  })
}
