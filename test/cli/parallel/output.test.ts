/**
 * A block's output lists (src/cli/parallel/output.ts): lines pushed as text and lines pushed as
 * input bytes around edits give the same bytes as encoding the edited text, whatever the
 * characters (any Unicode, surrogate pairs included) and wherever the edits fall.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteLines, giveBack, takeSpare, TextLines } from '../../../src/cli/parallel/output.js'
import { applyEdits, type Edit } from '../../../src/normalize/pattern.js'

/** A text, and non-overlapping edits of it that cut it only between whole characters. */
const edited = fc
  .tuple(fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme-composite' }), fc.string()), { minLength: 1, maxLength: 8 }), fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constant('')), { maxLength: 8 }))
  .map(([pieces, replacements]) => {
    // Pieces alternate kept, replaced, kept, …: their edges are the edits' edges.
    const text = pieces.join('')
    const edits: Edit[] = []
    let at = 0
    pieces.forEach((piece, i) => {
      if (i % 2 === 1) edits.push({ start: at, end: at + piece.length, text: replacements[i % Math.max(1, replacements.length)] ?? '' })
      at += piece.length
    })
    return { text, edits }
  })

describe('ByteLines', () => {
  it('pushFrom writes the UTF-8 of the edited text, as push of that text does', () => {
    fc.assert(
      fc.property(fc.array(edited, { minLength: 1, maxLength: 20 }), (lines) => {
        const from = new ByteLines()
        const pushed = new ByteLines()
        for (const { text, edits } of lines) {
          from.pushFrom(Buffer.from(text), text, edits)
          pushed.push(applyEdits(text, edits))
        }
        const expected = Buffer.from(lines.map(({ text, edits }) => `${applyEdits(text, edits)}\n`).join(''))
        expect(Buffer.from(from.take()!)).toEqual(expected)
        expect(Buffer.from(pushed.take()!)).toEqual(expected)
      }),
    )
  })

  it('grows past what it expected, and gives null when nothing was pushed', () => {
    const lines = new ByteLines(8)
    expect(lines.take()).toBeNull()
    const long = 'é'.repeat(10_000)
    lines.push('a')
    lines.push(long)
    lines.pushFrom(Buffer.from(long), long, [{ start: 1, end: 3, text: '€' }])
    expect(Buffer.from(lines.take()!).toString()).toBe(`a\n${long}\né€${'é'.repeat(9_997)}\n`)
  })
})

describe('ByteLines in memory given back', () => {
  /** Lines of `n` characters each, told apart by their first one. */
  const lines = (count: number, n: number) => Array.from({ length: count }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${'x'.repeat(n - 1)}`)
  /** The block's bytes once written: its memory is then given back, as the main thread does. */
  const written = (out: ByteLines) => {
    const bytes = out.take()!
    const copy = Buffer.from(bytes)
    giveBack(bytes.buffer as ArrayBuffer)
    return { copy, memory: bytes.buffer }
  }

  it('reuses it, and never shows what it held before, for blocks of very different sizes', () => {
    while (takeSpare()); // none left from other tests
    let last: ArrayBufferLike | undefined
    let reused = 0
    // Long lines, then short ones, then long ones again, over the same memory.
    for (const [count, n] of [[40, 10_000], [3, 20], [1, 1], [200, 100], [40, 10_000], [2, 5_000]] as const) {
      const out = new ByteLines(300_000)
      const text = lines(count, n)
      for (const [i, line] of text.entries()) {
        if (i % 2 === 0) out.push(line)
        else out.pushFrom(Buffer.from(line), line, [{ start: 1, end: 3, text: 'é' }])
      }
      const { copy, memory } = written(out)
      expect(copy.toString()).toBe(text.map((line, i) => (i % 2 === 0 ? line : `${line[0]}é${line.slice(3)}`)).join('\n') + '\n')
      if (memory === last) reused++
      last = memory
    }
    expect(reused).toBeGreaterThan(3)
  })

  it('keeps only memory large enough to be worth it, and takes a kept one only if it is large enough', () => {
    while (takeSpare());
    giveBack(new ArrayBuffer(1024))
    expect(takeSpare()).toBeUndefined()
    const small = new ArrayBuffer(100_000)
    giveBack(small)
    const out = new ByteLines(500_000)
    out.push('a'.repeat(10))
    out.push('b'.repeat(10))
    expect(out.take()!.buffer).not.toBe(small)
    expect(takeSpare()).toBe(small)
  })
})

describe('TextLines', () => {
  it('joins its lines with newlines; null when empty', () => {
    const lines = new TextLines()
    expect(lines.take()).toBeNull()
    lines.push('one')
    lines.push('two')
    expect(lines.take()).toBe('one\ntwo')
  })
})
