import { isUtf8 } from 'node:buffer'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readLines } from '../../src/jsonl/index.js'
import { decodeUtf8 } from '../../src/jsonl/utf8.js'
import { chunks } from '../support/streams.js'

const bytes = (...b: number[]) => Buffer.from(b)

describe('decodeUtf8: invalid UTF-8 as the original Go tools read it', () => {
  it('replaces each byte of an invalid sequence with its own U+FFFD', () => {
    expect(decodeUtf8(bytes(0x61, 0xff, 0x62))).toBe('a\ufffdb')
    // A truncated sequence: two and three U+FFFD (a browser-style decoder writes one).
    expect(decodeUtf8(bytes(0x61, 0xe2, 0x82, 0x62))).toBe('a\ufffd\ufffdb')
    expect(Buffer.from([0x61, 0xe2, 0x82, 0x62]).toString('utf8')).toBe('a\ufffdb')
    expect(decodeUtf8(bytes(0xf0, 0x9f, 0x98))).toBe('\ufffd\ufffd\ufffd')
    // Surrogates, overlong forms and code points above U+10FFFF are invalid too.
    expect(decodeUtf8(bytes(0xed, 0xa0, 0x80))).toBe('\ufffd\ufffd\ufffd')
    expect(decodeUtf8(bytes(0xc0, 0xaf))).toBe('\ufffd\ufffd')
    expect(decodeUtf8(bytes(0xf4, 0x90, 0x80, 0x80))).toBe('\ufffd\ufffd\ufffd\ufffd')
    // A valid sequence right after a bad byte is kept.
    expect(decodeUtf8(bytes(0x80, 0xe2, 0x82, 0xac))).toBe('\ufffd€')
  })

  it('decodes valid input as Node does, a U+FFFD of the input included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const buf = Buffer.from(s, 'utf8')
        expect(decodeUtf8(buf)).toBe(buf.toString('utf8'))
      }),
    )
    expect(decodeUtf8(Buffer.from('a\ufffdb'))).toBe('a\ufffdb')
  })

  it('gives one U+FFFD per byte that is not part of a valid sequence (any bytes)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (raw) => {
        const buf = Buffer.from(raw)
        const text = decodeUtf8(buf)
        // Whatever it decoded encodes back to the valid bytes it kept, one EF BF BD per bad byte.
        if (isUtf8(buf)) expect(Buffer.from(text, 'utf8').equals(buf)).toBe(true)
        let expected = 0
        for (const ch of text) expected += ch === '\ufffd' ? 1 : Buffer.byteLength(ch)
        expect(expected).toBe(buf.length - (buf.toString('latin1').match(/\xef\xbf\xbd/g)?.length ?? 0) * 2)
      }),
    )
  })

  it('is how JSON Lines lines are read', async () => {
    const items = []
    for await (const item of readLines(chunks(bytes(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82, 0x22, 0x7d, 0x0a)))) items.push(item)
    expect(items).toMatchObject([{ line: 1, text: '{"a":"\ufffd\ufffd"}' }])
  })
})
