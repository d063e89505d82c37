/**
 * The export thread's direct Buffer codecs (aggregate/buffer-codec.ts) give what Buffer.write and
 * Buffer.toString give: the same bytes written (also when they do not all fit), the same text read.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { latin1Text, utf8Text, writeUtf8 } from '../../../src/service/aggregate/buffer-codec.js'

const text = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }))

describe('direct Buffer codecs', () => {
  it('write UTF-8 as Buffer.write does, at any offset, in room enough or not (property)', () => {
    fc.assert(
      fc.property(text, fc.nat({ max: 8 }), fc.nat({ max: 200 }), (t, at, size) => {
        const mine = Buffer.alloc(at + size, 0xee)
        const theirs = Buffer.alloc(at + size, 0xee)
        expect(writeUtf8(mine, t, at)).toBe(theirs.write(t, at))
        expect(mine.equals(theirs)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('read UTF-8 and Latin-1 as Buffer.toString does (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), fc.nat(), fc.nat(), (bytes, x, y) => {
        const b = Buffer.from(bytes)
        const start = b.length === 0 ? 0 : x % b.length
        const end = start + (b.length === 0 ? 0 : y % (b.length - start + 1))
        expect(utf8Text(b, start, end)).toBe(b.toString('utf8', start, end))
        expect(latin1Text(b, start, end)).toBe(b.toString('latin1', start, end))
      }),
      { numRuns: 300 },
    )
  })
})
