import fc from 'fast-check'
import { isIP } from 'node:net'
import { describe, expect, it } from 'vitest'
import { canonicalDomain, canonicalIp, reverseLabels } from '../../src/service/index.js'

describe('canonicalIp', () => {
  it('keeps dotted quads and rejects other IPv4 spellings', () => {
    expect(canonicalIp('192.0.2.1')).toBe('192.0.2.1')
    expect(canonicalIp('0.0.0.0')).toBe('0.0.0.0')
    expect(canonicalIp('255.255.255.255')).toBe('255.255.255.255')
    for (const bad of ['192.0.2', '192.0.2.1.5', '192.0.2.256', '01.2.3.4', '1..2.3', '1.2.3.4 ', '0x1.2.3.4', '', '+1.2.3.4']) {
      expect(canonicalIp(bad), bad).toBeNull()
    }
  })

  it('writes IPv6 as RFC 5952: lower case, no leading zeros, longest zero run compressed', () => {
    expect(canonicalIp('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1')
    expect(canonicalIp('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1')
    expect(canonicalIp('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1')
    expect(canonicalIp('2001:db8::0:0:0:1')).toBe('2001:db8::1')
    expect(canonicalIp('::')).toBe('::')
    expect(canonicalIp('::1')).toBe('::1')
    expect(canonicalIp('1::')).toBe('1::')
    expect(canonicalIp('1:0:0:2:0:0:0:3')).toBe('1:0:0:2::3')
    expect(canonicalIp('::1.2.3.4')).toBe('::102:304')
  })

  it('turns IPv4-mapped IPv6 into the IPv4 address', () => {
    expect(canonicalIp('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(canonicalIp('::FFFF:c000:0201')).toBe('192.0.2.1')
    expect(canonicalIp('0:0:0:0:0:ffff:192.0.2.1')).toBe('192.0.2.1')
  })

  it('rejects malformed IPv6 and zones', () => {
    for (const bad of ['1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8:9', '::1::', '1:::2', '12345::', 'g::1', 'fe80::1%eth0', ':1::2', '1::2:', '1.2.3.4::', '::ffff:1.2.3', '[::1]']) {
      expect(canonicalIp(bad), bad).toBeNull()
    }
  })

  it('accepts exactly what node:net accepts (no zones, no leading zeros), and is idempotent', () => {
    const v6 = fc.ipV6()
    const v4 = fc.ipV4()
    fc.assert(
      fc.property(fc.oneof(v4, v6, fc.string({ maxLength: 12 })), (text) => {
        const c = canonicalIp(text)
        if (c === null) expect(isIP(text) === 0 || text.includes('%') || /(^|[.:])0\d/.test(text)).toBe(true)
        else {
          expect(isIP(c)).not.toBe(0)
          expect(canonicalIp(c)).toBe(c)
        }
      }),
      { numRuns: 200 },
    )
  })
})

describe('canonicalDomain', () => {
  it('lower-cases and drops one trailing dot', () => {
    expect(canonicalDomain('WWW.Example.COM.')).toBe('www.example.com')
    expect(canonicalDomain('_dmarc.example.com')).toBe('_dmarc.example.com')
    expect(canonicalDomain('localhost')).toBe('localhost')
    expect(canonicalDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example')
  })

  it('turns Unicode names into A-labels', () => {
    expect(canonicalDomain('Bücher.example')).toBe('xn--bcher-kva.example')
  })

  it('rejects what is not a domain name', () => {
    const long = Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')
    for (const bad of ['', '.', '..', 'a..b', '.a', 'a..', '-a.b', 'a-.b', 'a b', 'a/b', 'a%b', '192.0.2.1', 'a.123', 'x'.repeat(64), long, '\u0000', '*.example.com']) {
      expect(canonicalDomain(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('reverses labels for the name index', () => {
    expect(reverseLabels('www.example.com')).toBe('com.example.www')
    expect(reverseLabels('com')).toBe('com')
  })
})
