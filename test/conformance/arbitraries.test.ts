/** The exported arbitraries produce what they promise. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseGoDuration } from '../../src/client/index.js'
import {
  domainName,
  goDuration,
  ipv4,
  ipv4Spelling,
  ipv6,
  ipv6Spelling,
  lenientEvent,
  lookupResult,
  strictEvent,
  subdomainEntry,
} from '../../src/conformance/arbitraries.js'
import { isIP } from 'node:net'
import { emptyEvent, PROTOCOL_NAMES } from '../../src/schema/index.js'
import { normalize } from '../../src/normalize/index.js'
import { validate, validateDocument } from '../../src/validate/index.js'

const RUNS = { numRuns: 100 }
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/
/** The URL parser writes IPv6 in RFC 5952 form, except IPv4-mapped addresses (hex instead of dotted). */
const viaUrl = (text: string) => new URL(`http://[${text}]/`).hostname.slice(1, -1)

describe('arbitraries', () => {
  it('domainName gives lower-case names a DNS resolver accepts', () => {
    fc.assert(fc.property(domainName({ maxLabelLength: 63 }), (name) => DOMAIN.test(name)), RUNS)
  })

  it('ipv4 and ipv6 give canonical addresses', () => {
    fc.assert(fc.property(ipv4(), (ip) => isIP(ip) === 4 && ip.split('.').every((o) => String(Number(o)) === o)), RUNS)
    fc.assert(
      fc.property(ipv6(), (ip) => {
        expect(isIP(ip)).toBe(6)
        if (!ip.startsWith('::ffff:')) expect(viaUrl(ip)).toBe(ip)
      }),
      RUNS,
    )
  })

  it('every spelling is the same address as its canonical form', () => {
    fc.assert(
      fc.property(ipv6Spelling(), ({ canonical, text }) => {
        expect(isIP(text)).toBe(6)
        expect(viaUrl(text)).toBe(viaUrl(canonical))
      }),
      RUNS,
    )
    fc.assert(
      fc.property(ipv4Spelling(), ({ canonical, text }) => {
        expect(isIP(canonical)).toBe(4)
        expect(viaUrl(text === canonical ? `::ffff:${canonical}` : text)).toBe(viaUrl(`::ffff:${canonical}`))
      }),
      RUNS,
    )
  })

  it('strictEvent honours fixed members and keeps the canonical member order', () => {
    const keys = Object.keys(emptyEvent())
    let withProtocols = 0
    fc.assert(
      fc.property(strictEvent({ type: 'leak', ip: '192.0.2.9', host: fc.constant('a.example.com') }), (e) => {
        // Protocol objects, when there are any, follow the specified members in canonical order.
        const present = PROTOCOL_NAMES.filter((name) => name in e)
        if (present.length > 0) withProtocols++
        expect(Object.keys(e)).toEqual([...keys, ...present])
        expect([e.event_type, e.ip, e.host]).toEqual(['leak', '192.0.2.9', 'a.example.com'])
        expect(e.leak.severity).not.toBe('')
      }),
      RUNS,
    )
    expect(withProtocols).toBeGreaterThan(5)
  })

  it('lenientEvent passes the lenient profile but usually not the strict one', () => {
    let strictFailures = 0
    fc.assert(
      fc.property(lenientEvent(), (doc) => {
        expect(validate(doc, { profile: 'lenient' }).ok).toBe(true)
        if (!validate(doc, { profile: 'strict' }).ok) strictFailures++
      }),
      RUNS,
    )
    expect(strictFailures).toBeGreaterThan(50)
  })

  it('lenientEvent normalises to a strict event', () => {
    fc.assert(
      fc.property(lenientEvent(), (doc) => {
        const result = normalize(doc)
        expect(result.ok && validate(result.event, { profile: 'strict' }).ok).toBe(true)
      }),
      RUNS,
    )
  })

  it('lookupResult and subdomainEntry validate against the API schemas', () => {
    fc.assert(
      fc.property(lookupResult({ ip: '192.0.2.9' }), (r) => {
        expect(validateDocument('lookup-result', r).errors).toEqual([])
        expect((r.Services ?? []).every((e) => e.event_type === 'service' && e.ip === '192.0.2.9')).toBe(true)
        expect((r.Leaks ?? []).every((e) => e.event_type === 'leak')).toBe(true)
      }),
      RUNS,
    )
    fc.assert(
      fc.property(fc.array(subdomainEntry('example.com'), { maxLength: 5 }), (entries) => {
        expect(validateDocument('subdomains', entries).errors).toEqual([])
        expect(entries.every((e) => e.subdomain.endsWith('.example.com') && e.distinct_ips >= 1)).toBe(true)
      }),
      RUNS,
    )
  })

  it('goDuration gives strings the Go grammar accepts', () => {
    fc.assert(fc.property(goDuration(), (text) => parseGoDuration(text).ok), RUNS)
  })
})
