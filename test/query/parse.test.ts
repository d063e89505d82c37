/** The grammar, the printer, and the errors a person gets for a query that is wrong. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_DEPTH, MAX_QUERY_LENGTH, MAX_TERMS, parseQuery, printQuery, QueryError, type QueryErrorKind } from '../../src/query/index.js'
import { queryFor } from '../../src/conformance/gen/query.js'
import { strictEvent } from '../../src/conformance/gen/event.js'
import type { Clause } from '../../src/query/index.js'

/** The tree without positions. */
function shape(clauses: readonly Clause[]): unknown {
  return clauses.map((c) => ({
    occur: c.occur,
    node: c.node.kind === 'group' ? { group: shape(c.node.clauses) } : c.node.kind === 'all' ? '*' : { field: c.node.field, op: c.node.op, value: c.node.value, quoted: c.node.quoted },
  }))
}

/** The error parseQuery throws for `text`. */
function errorOf(text: string, scope: 'service' | 'leak' | 'any' = 'any'): QueryError {
  try {
    parseQuery(text, { scope })
  } catch (error) {
    if (error instanceof QueryError) return error
    throw error
  }
  throw new Error(`parsed: ${text}`)
}

describe('parse', () => {
  it('reads signs, groups, phrases, field terms and every operator, with positions', () => {
    const q = parseQuery('+"Location: /home/" -(Apache nginx) ssl.jarm:15d3 time:>"2026-11-24" http.status:<=404 summary:~"a.*" host:=x.test *')
    expect(shape(q.clauses)).toEqual([
      { occur: 'must', node: { field: null, op: ':', value: 'Location: /home/', quoted: true } },
      { occur: 'not', node: { group: [{ occur: 'should', node: { field: null, op: ':', value: 'Apache', quoted: false } }, { occur: 'should', node: { field: null, op: ':', value: 'nginx', quoted: false } }] } },
      { occur: 'should', node: { field: 'ssl.jarm', op: ':', value: '15d3', quoted: false } },
      { occur: 'should', node: { field: 'time', op: ':>', value: '2026-11-24', quoted: true } },
      { occur: 'should', node: { field: 'http.status', op: ':<=', value: '404', quoted: false } },
      { occur: 'should', node: { field: 'summary', op: ':~', value: 'a.*', quoted: true } },
      { occur: 'should', node: { field: 'host', op: ':=', value: 'x.test', quoted: false } },
      { occur: 'should', node: '*' },
    ])
    expect(q.clauses[2]!.span).toEqual({ offset: q.text.indexOf('ssl.jarm'), length: 'ssl.jarm:15d3'.length })
    expect(q.clauses[1]!.span).toEqual({ offset: q.text.indexOf('-('), length: '-(Apache nginx)'.length })
    expect(q.clauses[3]!.node.kind === 'term' && q.clauses[3]!.node.valueSpan).toEqual({ offset: q.text.indexOf('2026'), length: 10 })
  })

  it('takes an empty query, white space and `*` as every event', () => {
    for (const text of ['', '  ']) expect([parseQuery(text).cond.kind, printQuery(parseQuery(text))]).toEqual(['all', ''])
    for (const text of ['*', '\t*\n']) expect(printQuery(parseQuery(text))).toBe('*')
  })

  it('unescapes \\" and \\\\ in quotes and keeps other backslashes', () => {
    const q = parseQuery('summary:"a \\"b\\" \\\\ \\d"')
    expect(q.clauses[0]!.node.kind === 'term' && q.clauses[0]!.node.value).toBe('a "b" \\ \\d')
    expect(printQuery(q)).toBe('summary:"a \\"b\\" \\\\ \\\\d"')
  })

  it('prints canonical text: one space, lower-case field names, quotes kept', () => {
    expect(printQuery(parseQuery('  +HTTP.Status:200   -(a  "b c")  Plugin:"*" '))).toBe('+http.status:200 -(a "b c") plugin:"*"')
  })

  it('parse → print → parse gives the same tree for generated queries (property)', () => {
    const events = fc.array(strictEvent(), { minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(events.chain((es) => queryFor(es)), (text) => {
        const first = parseQuery(text)
        const printed = printQuery(first)
        expect(shape(parseQuery(printed).clauses)).toEqual(shape(first.clauses))
        expect(printQuery(parseQuery(printed))).toBe(printed)
      }),
      { numRuns: 300 },
    )
  })

  it('parse → print → parse gives the same tree for any text that parses (property)', () => {
    const piece = fc.constantFrom('+', '-', '(', ')', '"', '\\', ' ', 'a', 'b:', 'x.y:', '*', ':', '>', '<', '=', '~', 'é', '\t', 'summary:', 'ip:', '1')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }).map((p) => p.join('')), (text) => {
        let clauses: readonly Clause[]
        try {
          clauses = parseQuery(text).clauses
        } catch (error) {
          expect(error).toBeInstanceOf(QueryError)
          return
        }
        const printed = printQuery({ clauses })
        expect(shape(parseQuery(printed).clauses)).toEqual(shape(clauses))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('errors', () => {
  const cases: [string, QueryErrorKind, number, string, RegExp][] = [
    ['http.stats:200', 'unknown_field', 0, 'http.stats', /did you mean `http\.status`\?/],
    ['+status:200', 'unknown_field', 1, 'status', /`http\.status`/],
    ['a (b', 'syntax', 2, '(', /never closed/],
    ['a b)', 'syntax', 3, ')', /closes no group/],
    ['"abc', 'syntax', 0, '"', /quote is never closed/],
    ['a + ', 'syntax', 2, '+', /followed by a term/],
    ['(a - )', 'syntax', 3, '-', /followed by a term/],
    ['--a', 'syntax', 0, '--', /one sign/],
    ['a()', 'syntax', 1, '(', /cannot follow/],
    ['()', 'syntax', 0, '()', /empty/],
    ['port:>', 'syntax', 0, 'port:>', /needs a value/],
    ['port:="a"b', 'syntax', 9, 'b', /space after/],
    ['"a"b', 'syntax', 3, 'b', /space after/],
    ['summary:>5', 'bad_operator', 0, 'summary:>5', /text field: ranges/],
    ['plugin:<x', 'bad_operator', 0, 'plugin:<x', /keyword field/],
    ['http.status:~"4.*"', 'bad_operator', 0, 'http.status:~"4.*"', /integer field/],
    ['ip:10.0.0.0/33', 'bad_address', 3, '10.0.0.0/33', /CIDR/],
    ['ip:1.2.3', 'bad_address', 3, '1.2.3', /not an IP address/],
    ['time:>2026-02-30', 'bad_date', 6, '2026-02-30', /day 30 does not exist/],
    ['time:>"2026-11-24T10:00"', 'bad_date', 7, '2026-11-24T10:00', /not a date/],
    ['http.status:4x4', 'bad_integer', 12, '4x4', /not an integer/],
    ['http.status:99999999999999999', 'bad_integer', 12, '99999999999999999', /integer/],
    ['geoip.location.lat:>north', 'bad_number', 20, 'north', /not a number/],
    ['ssl.detected:yes', 'bad_bool', 13, 'yes', /true or false/],
    ['host:a..b', 'bad_name', 5, 'a..b', /not a domain name/],
    ['"--"', 'bad_value', 0, '"--"', /no word/],
    ['summary:~"(a"', 'bad_regex', 10, '(a', /never closed/],
    ['summary:~"a{1000}"', 'regex_refused', 11, '{1000}', /up to 100/],
    ['summary:~"^a"', 'bad_regex', 10, '^a', /whole value/],
    ['summary:~"(?i)a"', 'bad_regex', 10, '(?i)a', /not supported/],
    ['summary:~"(a|b{50}){50}"', 'regex_refused', 10, '(a|b{50}){50}', /too large/],
    ['a\u0000b', 'bad_character', 1, '?', /U\+0000/],
    ['a\ud800', 'bad_character', 1, '\ud800', /surrogate/],
  ]
  it.each(cases)('%s: %s at %i', (text, kind, offset, term, message) => {
    const e = errorOf(text)
    expect([e.kind, e.offset]).toEqual([kind, offset])
    expect(e.term).toBe(term)
    expect(e.message).toMatch(message)
    expect(e.message).toMatch(new RegExp(`^bad query at position ${offset + 1}`))
  })

  it('refuses leak-only fields in a search of services, and says so', () => {
    for (const term of ['leak.severity:high', 'severity:high', 'age:>3', 'creation_date:>2024-01-01', 'dataset.rows:>1', 'service.credentials.password:x']) {
      const e = errorOf(term, 'service')
      expect(e.kind, term).toBe('wrong_scope')
      expect(e.message).toMatch(/scope leak/)
      expect(() => parseQuery(term, { scope: 'leak' })).not.toThrow()
    }
  })

  it('draws a caret under the offending term', () => {
    const text = '+port:443 -countri:Germany'
    expect(errorOf(text).caret(text)).toBe('+port:443 -countri:Germany\n           ^^^^^^^')
  })

  it('bounds hostile input: length, nesting, terms, and stays linear', () => {
    expect(errorOf('a'.repeat(MAX_QUERY_LENGTH + 1)).kind).toBe('too_long')
    expect(errorOf('('.repeat(MAX_DEPTH + 1) + 'a' + ')'.repeat(MAX_DEPTH + 1)).kind).toBe('too_deep')
    expect(() => parseQuery('('.repeat(MAX_DEPTH) + 'a' + ')'.repeat(MAX_DEPTH))).not.toThrow()
    expect(errorOf(Array(MAX_TERMS + 1).fill('a').join(' ')).kind).toBe('too_many_terms')
    expect(errorOf('('.repeat(100_000)).kind).toBe('too_long')
    expect(errorOf('"'.repeat(4000)).kind).toBe('syntax')
  })

  it('never throws anything but QueryError, whatever the text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.constantFrom('service', 'leak', 'any') as fc.Arbitrary<'service' | 'leak' | 'any'>, (text, scope) => {
        try {
          parseQuery(text, { scope })
        } catch (error) {
          expect(error).toBeInstanceOf(QueryError)
          const e = error as QueryError
          expect(e.offset).toBeGreaterThanOrEqual(0)
          expect(e.offset).toBeLessThanOrEqual(text.length)
        }
      }),
      { numRuns: 3000 },
    )
  })
})
