/**
 * parseUrl() skips the URL parser for plain http(s) authorities (DNS names, dotted quads).
 * Property: for such URLs and near misses (leading zeros, octets over 255, five parts, odd
 * ports), it gives the host and port the URL parser gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DEFAULT_PORTS, parseUrl } from '../../../src/convert/common/net.js'

const octet = fc.oneof(fc.integer({ min: 0, max: 255 }).map(String), fc.constantFrom('00', '01', '256', '999', '0x1', ''))
const host = fc.oneof(fc.array(octet, { minLength: 3, maxLength: 5 }).map((parts) => parts.join('.')), fc.constantFrom('example.com', 'a--b.example', '1.2.3.4x'))
const port = fc.constantFrom('', ':80', ':443', ':8080', ':0', ':080', ':65535', ':65536')
const rest = fc.constantFrom('', '/', '/a?b', '?q', '#f', '/x#y', '@h/')

describe('parseUrl', () => {
  it('gives the URL parser’s host and port for plain http(s) authorities', () => {
    fc.assert(
      fc.property(fc.constantFrom('http', 'https', 'HTTP'), host, port, rest, (scheme, h, p, r) => {
        const text = `${scheme}://${h}${p}${r}`
        const parts = parseUrl(text)
        let url: URL | undefined
        try {
          url = new URL(text)
        } catch {
          url = undefined
        }
        if (!url || url.hostname === '') {
          expect(parts).toBeUndefined()
        } else {
          expect(parts?.host).toBe(url.hostname)
          expect(parts?.port).toBe(url.port === '' ? DEFAULT_PORTS[scheme.toLowerCase()] : url.port)
        }
      }),
      { numRuns: 3000, seed: 19 },
    )
  })
})
