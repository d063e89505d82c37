/** No query text, however malformed or hostile, and no odd scope or page makes GET /search fail with a 5xx. */
import fc from 'fast-check'
import { searchPath } from '../../client/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt, statusLine } from './lib.js'
import { searchAbsent } from './search-lib.js'

/** Pieces of the language (and of SQL and regular expressions) that malformed queries are made of. */
const PIECES = ['+', '-', '(', ')', '"', '\\', ':', ':>', ':<', ':=', ':~', '*', ' ', 'ip:', 'host:', 'time:', 'port:', 'http.header.', 'country:', "'", ';', '--', '%', '\u0000', '\uD800', 'é', '(a*)*b', '[', '{99999}', '2026-13-45', '::ffff:', '/129', 'DROP TABLE events']

/** A raw query string: pieces and random text, percent-encoded or sometimes not encoded at all. */
const hostileQuery = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 24 }).map((parts) => parts.join(''))

export const searchHostile: Check = {
  id: 'search-hostile',
  description: 'No generated query (malformed, unbalanced, control characters, lone surrogates, SQL and regex fragments, 5 000 characters), odd scope or page is answered with a 5xx',
  spec: "Errors; LeakIX's API: The query language",
  async run(ctx) {
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    const target = fc.tuple(hostileQuery, fc.constantFrom('service', 'leak', 'Service', '', 'x'), fc.constantFrom('0', '1', '-1', '99999999999999999999', 'x', ''))
    const examples: [string, string, string][] = [
      ['(((((((((((((((((((((((((((((((((x', 'service', '0'],
      ['a'.repeat(5000), 'leak', '0'],
      ['summary:~"(a|aa)*b"', 'service', '0'],
      ['ip:::ffff:1.2.3.4/200 host:..', 'service', '0'],
      ["x' OR '1'='1", 'leak', '0'],
    ]
    const result = await ctx.property('search-hostile', target, async ([q, scope, page]) => {
      const r = await ctx.get(searchPath(q, scope, page))
      return r.status >= 500 ? problemAt(r, `answered ${statusLine(r)}`) : undefined
    }, { examples })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    // Bytes no encoder would send: a bare %, invalid UTF-8, a raw quote and space.
    for (const raw of ['/search?scope=leak&q=%&page=0', '/search?scope=leak&q=%ED%A0%80%FF&page=0', '/search?scope=service&q="a b&page=0', '/search?scope=service&scope=leak&q=*&q=x&page=0&page=1']) {
      const r = await ctx.get(raw)
      if (r.status >= 500) return fail(problemAt(r, `answered ${statusLine(r)}`))
    }
    return pass(plural(ctx.maxExamples + examples.length, 'query', 'queries'))
  },
}
