import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { eventFingerprint } from '../../src/fingerprint/index.js'
import { fnv1, FNV_OFFSET } from '../../src/fingerprint/fnv.js'
import { normalize } from '../../src/normalize/index.js'

const bytes = (text: string) => new TextEncoder().encode(text)

describe('FNV-1 32-bit', () => {
  it('multiplies then xors (FNV-1, not FNV-1a)', () => {
    // By hand: 0x811c9dc5 × 0x01000193 mod 2^32 = 0x050c5d1f; xor 'a' (0x61) = 0x050c5d7e.
    expect(fnv1(FNV_OFFSET, bytes('a'))).toBe(0x050c5d7e)
    // FNV-1a would give 0xe40c292c for "a".
    expect(fnv1(FNV_OFFSET, bytes('x'))).toBe(0x050c5d67) // 0x050c5d1f ^ 0x78
    expect(fnv1(FNV_OFFSET, bytes(''))).toBe(FNV_OFFSET)
  })
})

describe('event_fingerprint version 1', () => {
  it('matches the test vector of facts.md', () => {
    expect(eventFingerprint('testing', 'test\ntest\n')).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddefe9efc5e')
    expect(eventFingerprint('testing', 'test\ntest\n', 1)).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddefe9efc5e')
  })

  it('skips Date: lines, drops a trailing \\r, stops the lines at 28 bytes, then hashes the whole summary', () => {
    const summary = 'HTTP/1.1 200 OK\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT\r\nServer: nginx\r\nETag: "abc"\r\n\r\nhello'
    // source c6620ff5 | "HT" cfbda5f1 | HTTP/1.1 200 OK 19394f06 | (Date skipped) | Server 77f5ced3 |
    // ETag 242c2446 | "" 242c2446 (hashes nothing, still appended) | hello 2d70adde | whole eb3a313e
    expect(eventFingerprint('http', summary, 1)).toBe('c6620ff5cfbda5f119394f0677f5ced3242c2446242c24462d70addeeb3a313e')
    // 9 lines: only a–e fit before the buffer holds 28 bytes.
    expect(eventFingerprint('x', 'a\nb\nc\nd\ne\nf\ng\nh\ni', 1)).toBe('050c5d671a63960690c52b13f962ce8b218b24b2800ac452e2f30d7331ef7bb0')
    // A one-byte summary has no "first two bytes" step.
    expect(eventFingerprint('s', 'y', 1)).toBe('050c5d6c5e77117d5e77117d5e77117d5e77117d5e77117d5e77117d327087be')
    expect(eventFingerprint('', '', 1)).toBe('811c9dc5'.repeat(8))
  })
})

describe('event_fingerprint version 2 (hand-traced)', () => {
  it('appends states like v1 but pads with the final state instead of hashing the summary again', () => {
    // testing 5a2c67df | "te" 7b758a1e | test b5b5f87e | test ed5cadde | "" ed5cadde | pad ed5cadde ×3
    expect(eventFingerprint('testing', 'test\ntest\n', 2)).toBe('5a2c67df7b758a1eb5b5f87eed5caddeed5caddeed5caddeed5caddeed5cadde')
  })

  it('skips the volatile header lines (Date, ETag, …) whatever their case', () => {
    const summary = 'HTTP/1.1 200 OK\r\nDate: Mon, 01 Jan 2024 00:00:00 GMT\r\nServer: nginx\r\nETag: "abc"\r\n\r\nhello'
    // c6620ff5 | cfbda5f1 | 19394f06 | (Date) | Server 77f5ced3 | (ETag) | "" 77f5ced3 | hello b34d7a5d | pad b34d7a5d ×2
    expect(eventFingerprint('http', summary, 2)).toBe('c6620ff5cfbda5f119394f0677f5ced377f5ced3b34d7a5db34d7a5db34d7a5d')
    const noisy = 'X-Cache: HIT\nx-amz-id: 1\nVia: proxy\nExpires: 0\nCF-RAY: 1\nLast-Modified: now\nbody'
    // Only "body" is hashed after the first two bytes, so changing any skipped line keeps the result.
    const changed = 'X-Cache: MISS\nx-amz-id: 2\nVia: other\nExpires: 1\nCF-RAY: 2\nLast-Modified: later\nbody'
    expect(eventFingerprint('http', changed, 2)).toBe(eventFingerprint('http', noisy, 2))
    expect(eventFingerprint('http', changed, 1)).not.toBe(eventFingerprint('http', noisy, 1))
  })

  it('hashes every kept line even after the buffer is full', () => {
    // a–e appended (28 bytes); f, g, h, i still hashed: final state 986aa55b pads the last 4 bytes.
    expect(eventFingerprint('x', 'a\nb\nc\nd\ne\nf\ng\nh\ni', 2)).toBe('050c5d671a63960690c52b13f962ce8b218b24b2800ac452e2f30d73986aa55b')
    expect(eventFingerprint('s', 'y', 2)).toBe('050c5d6c' + '5e77117d'.repeat(7))
  })

  it("lower-cases like Go's strings.ToLower: U+0130 'İ' becomes 'i', so 'VİA:' is a Via line", () => {
    // v2: 050c5d6c | first two bytes 077044d2 | (VİA skipped) | kept d3f36236 | pad
    expect(eventFingerprint('s', 'V\u0130A: 1.1 proxy\nkept', 2)).toBe('050c5d6c077044d2' + 'd3f36236'.repeat(6))
    expect(eventFingerprint('s', 'V\u0130A: 1.1 proxy\nkept', 1)).toBe('050c5d6c077044d241297bcb' + '6ba17f67'.repeat(4) + '7c75f7fe')
  })

  it('treats the capital-letter x-v-Cache prefix of the original as never matching', () => {
    expect(eventFingerprint('s', 'ab\nx-v-cache: 1', 2)).not.toBe(eventFingerprint('s', 'ab\nx-v-cache: 2', 2))
  })
})

describe('event_fingerprint properties', () => {
  it('is always 64 lower-case hex characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom(1 as const, 2 as const), (source, summary, version) => {
        expect(eventFingerprint(source, summary, version)).toMatch(/^[0-9a-f]{64}$/)
      }),
      { numRuns: 200 },
    )
  })

  it('depends only on event_source and summary', () => {
    const other = fc.record({
      host: fc.string(),
      ip: fc.string(),
      port: fc.integer({ min: 0, max: 65535 }),
      tags: fc.array(fc.string(), { maxLength: 3 }),
      http: fc.record({ title: fc.string(), status: fc.integer({ min: 0, max: 999 }) }),
    })
    fc.assert(
      fc.property(fc.string(), fc.string(), other, other, fc.constantFrom('v1' as const, 'v2' as const), (source, summary, a, b, algo) => {
        const one = normalize({ ...a, event_source: source, summary }, { fingerprint: algo })
        const two = normalize({ ...b, event_source: source, summary }, { fingerprint: algo })
        if (!one.ok || !two.ok) throw new Error('generated documents must normalise')
        expect(one.event.event_fingerprint).toBe(two.event.event_fingerprint)
        expect(one.event.event_fingerprint).toBe(eventFingerprint(source, summary, algo === 'v1' ? 1 : 2))
      }),
      { numRuns: 200 },
    )
  })
})
