/** The Go duration parser against its grammar. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ceilMillis, headerText, parseDurationHeader, parseGoDuration } from '../../src/client/index.js'
import { goDurationCase } from '../../src/conformance/arbitraries.js'

// The grammar of time.ParseDuration as a regular expression (value aside).
const GRAMMAR = /^[+-]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h))+)$/

describe('parseGoDuration', () => {
  it('reads the examples servers send', () => {
    const cases: [string, bigint][] = [
      ['344.24ms', 344_240_000n],
      ['1.5s', 1_500_000_000n],
      ['1m2s', 62_000_000_000n],
      ['500\u00b5s', 500_000n],
      ['500\u03bcs', 500_000n],
      ['250us', 250_000n],
      ['2h', 7_200_000_000_000n],
      ['734ms', 734_000_000n],
      ['1h0m0s', 3_600_000_000_000n],
      ['1m2.5s', 62_500_000_000n],
      ['0', 0n],
      ['-1.5h', -5_400_000_000_000n],
      ['+.5s', 500_000_000n],
      ['5.s', 5_000_000_000n],
      ['1.9ns', 1n],
    ]
    for (const [text, ns] of cases) expect(parseGoDuration(text), text).toEqual({ ok: true, nanoseconds: ns })
  })

  it('rejects what Go rejects, with a reason and without throwing', () => {
    for (const text of ['', '1', '12', '1.5', 'ms', '.s', '.', '1ss', '1 s', ' 1s', '+-1s', '--1s', '1d', '1S', '1Ms', 's1', '1s2', '9999999999h', '0x10s']) {
      const result = parseGoDuration(text)
      expect(result.ok, text).toBe(false)
      if (!result.ok) expect(result.reason).toContain('not a Go duration')
    }
  })

  it('gives the exact value of every generated duration', () => {
    fc.assert(
      fc.property(goDurationCase(), ({ text, nanoseconds }) => {
        expect(parseGoDuration(text)).toEqual({ ok: true, nanoseconds })
      }),
      { numRuns: 200 },
    )
  })

  it('accepts a string exactly when it follows the grammar (or overflows int64)', () => {
    const alphabet = fc.constantFrom(...'0123456789.+-nsuµμmhx '.split(''))
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 10 }).map((cs) => cs.join('')), (text) => {
        const result = parseGoDuration(text)
        if (GRAMMAR.test(text)) expect(result.ok || result.reason.includes('out of range')).toBe(true)
        else expect(result.ok).toBe(false)
      }),
      { numRuns: 200 },
    )
  })

  it('is additive: the value of a concatenation is the sum of the values', () => {
    const unsigned = goDurationCase().filter((d) => /^\d|^\./.test(d.text) && d.text !== '0')
    fc.assert(
      fc.property(unsigned, unsigned, (a, b) => {
        expect(parseGoDuration(a.text + b.text)).toEqual({ ok: true, nanoseconds: a.nanoseconds + b.nanoseconds })
      }),
      { numRuns: 100 },
    )
  })

  it('rounds waits up to whole milliseconds', () => {
    expect(ceilMillis(344_240_000n)).toBe(345)
    expect(ceilMillis(1_000_000n)).toBe(1)
    expect(ceilMillis(1n)).toBe(1)
    expect(ceilMillis(0n)).toBe(0)
    expect(ceilMillis(-5n)).toBe(0)
  })
})

describe('parseDurationHeader', () => {
  const received = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

  it('reads a header whose UTF-8 bytes arrived one character per byte', () => {
    expect(received('500\u00b5s')).toBe('500\u00c2\u00b5s')
    expect(parseDurationHeader(received('500\u00b5s'))).toEqual({ ok: true, nanoseconds: 500_000n })
    expect(parseDurationHeader(received('1ms500\u03bcs'))).toEqual({ ok: true, nanoseconds: 1_500_000n })
    expect(parseDurationHeader(' 734ms ')).toEqual({ ok: true, nanoseconds: 734_000_000n })
    // A lone Latin-1 micro sign (not UTF-8) is read as it is.
    expect(parseDurationHeader('7\u00b5s')).toEqual({ ok: true, nanoseconds: 7_000n })
    expect(parseDurationHeader(received('7\u00e9s')).ok).toBe(false)
  })

  it('leaves text that is not UTF-8 bytes as it is, and decodes any that is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(headerText(received(text))).toBe(text)
      }),
    )
    expect(headerText('\u00ff\u00fe')).toBe('\u00ff\u00fe')
    expect(headerText('\u00c2')).toBe('\u00c2')
  })
})
