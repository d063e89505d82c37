import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteArena } from '../../../../src/service/store/memory/arena.js'

describe('ByteArena', () => {
  it('keeps each entry as its UTF-8 bytes, replaced entries counted as waste until compacted', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 20 }), fc.oneof(fc.string({ maxLength: 50 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constant('x'.repeat(2_000_000)))), {
          maxLength: 40,
        }),
        (writes) => {
          const arena = new ByteArena()
          const model = new Map<number, string>()
          let count = 0
          for (const [raw, text] of writes) {
            const id = Math.min(raw, count)
            arena.set(id, text, model.has(id))
            model.set(id, text)
            if (id === count) count++
          }
          const check = () => {
            for (const [id, text] of model) {
              expect(arena.text(id)).toBe(text)
              expect(arena.bytes(id).equals(Buffer.from(text))).toBe(true)
            }
            expect(arena.live).toBe([...model.values()].reduce((n, t) => n + Buffer.byteLength(t), 0))
          }
          check()
          arena.compact(count)
          expect(arena.wasted).toBe(0)
          check()
        },
      ),
      { numRuns: 60 },
    )
  })

  it('keeps taken-over buffers in place, counting their unused bytes as waste until compacted', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 10 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.boolean(), fc.nat({ max: 30 })), { maxLength: 30 }), (writes) => {
        const arena = new ByteArena()
        const model = new Map<number, string>()
        let count = 0
        for (const [raw, text, take, pad] of writes) {
          const id = Math.min(raw, count)
          if (take) {
            // The text in a buffer of its own, after and before bytes no entry uses.
            const own = Buffer.allocUnsafeSlow(Buffer.byteLength(text) + 2 * pad).fill(0x2e)
            own.write(text, pad)
            arena.keep(id, own.subarray(pad, pad + Buffer.byteLength(text)), model.has(id))
          } else arena.set(id, text, model.has(id))
          model.set(id, text)
          if (id === count) count++
        }
        const check = () => {
          for (const [id, text] of model) expect(arena.text(id)).toBe(text)
          expect(arena.live).toBe([...model.values()].reduce((n, t) => n + Buffer.byteLength(t), 0))
          expect(arena.wasted).toBeGreaterThanOrEqual(0)
          expect(arena.live + arena.wasted).toBeLessThanOrEqual(arena.capacity)
        }
        check()
        arena.compact(count)
        expect(arena.wasted).toBe(0)
        check()
      }),
      { numRuns: 100 },
    )
  })
})
