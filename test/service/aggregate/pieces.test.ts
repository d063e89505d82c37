/**
 * Writing a line's pieces (aggregate/pieces.ts): strings of any length and script and stored
 * bytes, one after another, give the same UTF-8 bytes as joining them first. Short ASCII strings
 * are written byte by byte and the others by Buffer.write: both ways are generated.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { joinPieces, piecesLength, piecesRoom, writePieces } from '../../../src/service/aggregate/pieces.js'

/** ASCII and non-ASCII text (two- to four-byte UTF-8 and lone surrogates), short and long. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 20, maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
)
const piece = fc.oneof(text, fc.uint8Array({ maxLength: 64 }))

const expected = (pieces: readonly (string | Uint8Array)[]) => Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))))

describe('line pieces', () => {
  it('are written as the UTF-8 of their text joined, at any offset', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), fc.nat({ max: 7 }), (pieces, offset) => {
        const want = expected(pieces)
        expect(piecesLength(pieces)).toBe(want.length)
        // The export thread sizes its buffers by piecesRoom: never less than the bytes written.
        expect(piecesRoom(pieces)).toBeGreaterThanOrEqual(want.length)
        const out = Buffer.alloc(offset + want.length + 3, 0xee)
        expect(writePieces(out, offset, pieces)).toBe(offset + want.length)
        expect(out.subarray(offset, offset + want.length).equals(want)).toBe(true)
        // Nothing written around them.
        expect(out.subarray(0, offset).every((b) => b === 0xee)).toBe(true)
        expect(out.subarray(offset + want.length).every((b) => b === 0xee)).toBe(true)
        expect(joinPieces(pieces).equals(want)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('write members of a line longer than the byte-by-byte limit', () => {
    const member = `,"ip":"2001:db8::1","resource_id":"2001:db8::1","open_ports":["80","443"],"leak_count":1,"events":[`
    const host = `,"resource_id":"büro.example.${'x'.repeat(30)}"`
    expect(joinPieces([member, host]).toString('utf8')).toBe(member + host)
  })
})
