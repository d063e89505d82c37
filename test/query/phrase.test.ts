/**
 * The phrase matcher (query/text.ts): for words of ASCII letters and digits it folds case with
 * the regular expression's `i` flag instead of lowering the value first. Checked against the
 * rule as written (the value's ASCII letters lowered, then the literal words with separator
 * runs between them) on values built from the words in changed case, and from characters whose
 * case folding is unusual: U+017F (long s), U+212A (Kelvin sign), ı and İ, é/É, ß, NUL and lone
 * surrogates (which become U+FFFD, a word character).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { asciiLower, storable, wordsOf } from '../../src/query/index.js'
import { phraseMatcher } from '../../src/query/text.js'

const SEP = '[^0-9A-Za-z\\u0080-\\uffff]'
const escape = (word: string) => word.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`)

/** The rule as docs/search.md states it, without the `i` flag. */
function reference(words: readonly string[], value: string): boolean {
  const re = new RegExp(`(?:^|${SEP})${words.map(escape).join(`${SEP}+`)}(?:$|${SEP})`)
  return re.test(asciiLower(storable(value)))
}

const odd = ['\u017f', '\u212a', '\u0131', '\u0130', 'é', 'É', 'ß', '\ufb00', '\0', '\ud800', '\udc00', ' ', '-', '_', '.', '/', '\n', 'µ', 'Μ', 'ǅ']
const piece = fc.oneof(fc.constantFrom(...odd), fc.constantFrom('a', 'B', 'z', 'Z', 's', 'S', 'k', 'K', 'i', 'I', '0', '9'), fc.string({ maxLength: 3 }))
const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''))
const recase = (s: string, flips: boolean[]) => [...s].map((c, i) => (flips[i % Math.max(1, flips.length)] ? c.toUpperCase() : c)).join('')

describe('phraseMatcher', () => {
  it('matches exactly what lowering the value and matching the words literally matches', () => {
    fc.assert(
      fc.property(text, text, text, fc.array(fc.boolean(), { maxLength: 8 }), (query, before, after, flips) => {
        const words = wordsOf(query)
        if (words.length === 0) return
        const match = phraseMatcher(words)
        // Values that hold the phrase in changed case, with odd characters around it, and random ones.
        for (const value of [`${before}${recase(words.join(' '), flips)}${after}`, `${before}${recase(query, flips)}${after}`, before, `${before}${query}`]) {
          expect({ words, value, matches: match(value) }).toEqual({ words, value, matches: reference(words, value) })
        }
      }),
      { numRuns: 3000 },
    )
  })

  it('with the i flag, no character above U+007F is an ASCII letter or digit, and separators stay separators (every UTF-16 unit)', () => {
    const alnum = /[0-9a-z]/i
    const sepFolded = new RegExp(SEP, 'i')
    const sepPlain = new RegExp(SEP)
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit)
      if (unit >= 0x80 && alnum.test(c)) throw new Error(`U+${unit.toString(16)} folds to an ASCII letter or digit`)
      if (sepFolded.test(c) !== sepPlain.test(c)) throw new Error(`U+${unit.toString(16)}: the separator class differs with the i flag`)
    }
  })

  it('folds ASCII letters only', () => {
    expect(phraseMatcher(['nginx'])('Server: NGINX/1.2')).toBe(true)
    expect(phraseMatcher(['ss'])('ß')).toBe(false)
    expect(phraseMatcher(['s'])('\u017f')).toBe(false) // long s
    expect(phraseMatcher(['k'])('\u212a')).toBe(false) // the Kelvin sign
    expect(phraseMatcher(['i'])('\u0130 \u0131')).toBe(false)
    expect(phraseMatcher(['é'])('É')).toBe(false)
  })
})
