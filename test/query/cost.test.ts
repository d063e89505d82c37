/** What a query costs before it runs (src/query/cost.ts), and the regular expressions the matcher can always compile. */
import fc from 'fast-check'
import { RE2JS } from 're2js'
import { describe, expect, it } from 'vitest'
import { eventWork, MAX_NESTED_REPEAT, PARSE_COST, parseQuery, QueryError, queryCost, TYPICAL_EVENT_BYTES } from '../../src/query/index.js'
import { parseRegex, RegexProblem } from '../../src/query/regex.js'

const cost = (text: string, scope: 'service' | 'leak' | 'any' = 'any') => queryCost(parseQuery(text, { scope }))

/** The audit's costly regular expression (issue 40), and its query of 128 optional words. */
const COSTLY_REGEX = '+port:22 +summary:~"([^a]{0,50}[^b]{0,50}){10}z"'
const WORDS_128 = Array.from({ length: 128 }, (_, i) => `w${i}x`).join(' ')

describe('queryCost', () => {
  it('prices every event at nothing for *, and a simple comparison at one unit', () => {
    expect(cost('*')).toEqual({ perEvent: 0, narrowed: false })
    expect(cost('')).toEqual({ perEvent: 0, narrowed: false })
    expect(cost('port:22')).toMatchObject({ perEvent: 1, narrowed: true })
    expect(cost('http.status:>=400')).toMatchObject({ perEvent: 1, narrowed: false })
  })

  it('prices a bare word in each of the three bare text fields, and adds up the terms', () => {
    expect(cost('nginx').perEvent).toBe(6)
    expect(cost('summary:nginx').perEvent).toBe(2)
    expect(cost(WORDS_128).perEvent).toBe(128 * 6)
    expect(cost('"a b c d"').perEvent).toBe(6) // a phrase is one search of each field
  })

  it('weighs a regular expression by its size once repetitions are counted out, and by the length of what it reads', () => {
    const costly = cost(COSTLY_REGEX)
    // (50 + 50) × 10 + 1 characters over a long text field, plus the port.
    expect(costly.perEvent).toBeCloseTo(2 + 1001 * 1.2 + 1, 5)
    expect(costly.costliest?.span).toEqual({ offset: 10, length: COSTLY_REGEX.length - 10 })
    expect(cost('summary:~"a{0,50}"').perEvent).toBeGreaterThan(cost('summary:~"a"').perEvent)
    // A keyword's values are short: the same pattern costs less there.
    expect(cost('http.url:~"a{0,50}"').perEvent).toBeLessThan(cost('summary:~"a{0,50}"').perEvent)
    // Every header is read.
    expect(cost('http.header.server:~"a{0,50}"').perEvent).toBeGreaterThan(cost('summary:~"a{0,50}"').perEvent)
  })

  it('is above the anonymous plan’s default cap (1 000) for the costly regex, below it for the 128 words', () => {
    expect(cost(COSTLY_REGEX).perEvent).toBeGreaterThan(1000)
    expect(cost(WORDS_128).perEvent).toBeLessThan(1000)
  })

  it('knows when an index narrows the events read', () => {
    expect(cost('+ip:192.0.2.0/24 +summary:x').narrowed).toBe(true)
    expect(cost('ip:192.0.2.1 host:example.com').narrowed).toBe(true) // every optional term is indexed
    expect(cost('ip:192.0.2.1 summary:x').narrowed).toBe(false)
    expect(cost('-port:22').narrowed).toBe(false)
    expect(cost('summary:~"a.*"').narrowed).toBe(false)
    expect(cost('+time:>2026-01-01').narrowed).toBe(true)
  })

  it('is the sum of its terms’ costs, whatever their signs and grouping (property)', () => {
    const term = fc.constantFrom('nginx', 'port:22', 'summary:~"a{0,20}b"', 'http.header.server:apache', 'tags:x', '"a b"', 'country:DE', 'ip:192.0.2.0/24')
    const sign = fc.constantFrom('', '+', '-')
    fc.assert(
      fc.property(fc.array(fc.tuple(sign, term), { minLength: 1, maxLength: 8 }), fc.boolean(), (terms, group) => {
        const texts = terms.map(([s, t]) => `${s}${t}`)
        const whole = group ? `(${texts.join(' ')})` : texts.join(' ')
        const sum = texts.map((t) => cost(t).perEvent).reduce((a, b) => a + b, 0)
        expect(cost(whole).perEvent).toBeCloseTo(sum, 5)
      }),
    )
  })
})

describe('eventWork', () => {
  it('is reading the event plus the query’s cost, in proportion to the event’s size (a quarter of it at least)', () => {
    expect(eventWork(0, TYPICAL_EVENT_BYTES)).toBe(PARSE_COST)
    expect(eventWork(90, TYPICAL_EVENT_BYTES * 2)).toBe(2 * (PARSE_COST + 90))
    expect(eventWork(90, 10)).toBe((PARSE_COST + 90) / 4)
  })
})

describe('regular expressions the matcher compiles', () => {
  const refused = (pattern: string) => {
    try {
      parseQuery(`summary:~"${pattern}"`)
    } catch (error) {
      if (error instanceof QueryError) return error
      throw error
    }
    return undefined
  }

  it('refuses nested repetitions that multiply past the matcher’s limit with our own message (not the library’s)', () => {
    for (const pattern of ['(a{0,11}){0,100}', '((a{0,40}){0,30})', '(x{20}b){60}']) {
      const error = refused(pattern)
      expect(error?.kind, pattern).toBe('regex_refused')
      expect(error?.message, pattern).toMatch(new RegExp(`multiply to more than ${MAX_NESTED_REPEAT}`))
      expect(error?.message, pattern).not.toMatch(/invalid repeat count|error parsing regexp/)
    }
    // At the limit, and with `*` `+` `?` (which the rule does not count), it is fine.
    for (const pattern of ['(a{0,10}){0,100}', '(a*){100}', '((a+)?){10}b{100}']) expect(refused(pattern), pattern).toBeUndefined()
  })

  it('refuses, before compiling, exactly the patterns the matcher would refuse (property)', () => {
    const leaf = fc.constantFrom('a', '.', '[^a]', '\\d', '(a|b)')
    const count = fc.constantFrom('*', '+', '?', '{3}', '{0,7}', '{2,}', '{10}', '{0,40}', '{100}', '')
    const pattern = fc.letrec<{ p: string }>((tie) => ({
      p: fc.oneof({ depthSize: 'small' }, leaf, fc.tuple(tie('p'), count).map(([p, c]) => `(${p})${c}`), fc.tuple(tie('p'), tie('p')).map(([a, b]) => `${a}${b}`)),
    })).p
    fc.assert(
      fc.property(pattern, (source) => {
        let libraryRefuses = false
        try {
          RE2JS.compile(`(?s:${source})`)
        } catch {
          libraryRefuses = true
        }
        let regex
        try {
          regex = parseRegex(source)
        } catch (error) {
          if (!(error instanceof RegexProblem)) throw error
          // Our own checks said why (size, nesting), never the fallback for a library refusal.
          expect(error.message, source).not.toMatch(/too complex/)
          return
        }
        expect(libraryRefuses, source).toBe(false)
        expect(() => regex.test('aab')).not.toThrow()
      }),
      { numRuns: 300 },
    )
  })
})
