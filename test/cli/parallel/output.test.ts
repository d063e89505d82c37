/**
 * A block's output lists (src/cli/parallel/output.ts): lines pushed as text and lines pushed as
 * input bytes around edits give the same bytes as encoding the edited text, whatever the
 * characters (any Unicode, surrogate pairs included) and wherever the edits fall.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteLines, TextLines } from '../../../src/cli/parallel/output.js'
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

describe('TextLines', () => {
  it('joins its lines with newlines; null when empty', () => {
    const lines = new TextLines()
    expect(lines.take()).toBeNull()
    lines.push('one')
    lines.push('two')
    expect(lines.take()).toBe('one\ntwo')
  })
})
