import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COOKIE_SEPARATOR, HeaderBuilder, restoreDashes, snakeHeaderKey } from '../../../src/convert/common/headers.js'
import { httpSummary, httpSummaryText } from '../../../src/convert/common/http.js'

// Names that exercise the special cases: repeats, cookies, index-like and digit-led names, case, blanks.
const name = fc.oneof(fc.constantFrom('Server', 'server', 'set-cookie', 'Set-Cookie', 'vary', '0', '12', '1x', ' x ', '', '__proto__'), fc.string({ maxLength: 6 }))
const value = fc.oneof(fc.constantFrom('', 'a, b', `a${COOKIE_SEPARATOR}b`), fc.string({ maxLength: 6 }))

describe('HeaderBuilder.text', () => {
  it('is lines() joined with a newline, whatever was added', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), (pairs) => {
        const b = new HeaderBuilder()
        for (const [n, v] of pairs) b.add(n, v)
        expect(b.text()).toBe(b.lines().join('\n'))
      }),
      { numRuns: 500 },
    )
  })

  it('gives the summary httpSummary gives for the lines', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 6 }), fc.constantFrom('', 'HTTP/1.1 200 OK'), fc.constantFrom('', 'Title'), (pairs, status, title) => {
        const b = new HeaderBuilder()
        for (const [n, v] of pairs) b.add(n, v)
        expect(httpSummaryText(status, b.text(), title)).toBe(httpSummary(status, b.lines(), title))
      }),
      { numRuns: 300 },
    )
  })
})

describe('snakeHeaderKey', () => {
  it('is the key add() makes of the name with dashes restored', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('content_type', 'X_Frame_Options', ' a_b '), fc.string({ maxLength: 8 })), (n) => {
        // twice: the remembered key is the same as the first
        for (let i = 0; i < 2; i++) expect(snakeHeaderKey(n)).toBe(restoreDashes(n).trim().toLowerCase())
      }),
    )
  })
})
