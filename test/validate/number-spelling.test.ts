/**
 * `"status": 200.0`: an integer member written with a fraction or exponent. JSON.parse gives
 * 200, so only the text shows it: strict validation refuses it (as the original Go decoder and
 * every shipped type do), lenient accepts it, and normalize writes the integer.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { integerSpellingIssues } from '../../src/validate/index.js'
import { hasCandidate } from '../../src/validate/number-spelling.js'
import eventSchema from '../../schema/event.schema.json' with { type: 'json' }
import { runCli } from '../support/streams.js'

/** A canonical event whose http.status is written `spelled`. */
const withStatus = (spelled: string) => JSON.stringify({ ...emptyEvent(), http: { ...emptyEvent().http, status: 7 } }).replace('"status":7', `"status":${spelled}`)

describe('integer members written with a fraction or exponent', () => {
  it('strict validate refuses them, naming the member; lenient accepts; normalize writes the integer', async () => {
    const text = withStatus('200.0')
    const strict = await runCli(['validate'], `${text}\n`)
    expect(strict.code).toBe(1)
    expect(strict.stdout).toBe('<stdin>:1: /http/status: expected integer, found 200.0: a canonical integer is written without a fraction or exponent (normalize writes 200)\n0 valid, 1 invalid\n')
    expect(await runCli(['validate', '--profile', 'lenient'], `${text}\n`)).toMatchObject({ code: 0 })
    const normalized = await runCli(['normalize'], `${text}\n`)
    expect(normalized.stdout).toBe(`${withStatus('200')}\n`)
    expect(await runCli(['validate'], normalized.stdout)).toMatchObject({ code: 0, stdout: '1 valid, 0 invalid\n' })
    expect((await runCli(['normalize', '--check'], `${text}\n`)).code).toBe(1)
  })

  it('leaves numbers alone where the schema wants a number, and text that only looks like one', () => {
    const doc = { ...emptyEvent(), summary: '"status": 200.0', geoip: { ...emptyEvent().geoip, location: { lat: 1.0, lon: 2.5e1 } } }
    const text = JSON.stringify(doc).replace('"lat":1', '"lat":1.0').replace('"lon":25', '"lon":2.5e1')
    expect(integerSpellingIssues(text)).toEqual([])
    // A real fraction is not an integer: the schema reports it (wrong_type), this check does not repeat it.
    expect(integerSpellingIssues(withStatus('200.5'))).toEqual([])
  })

  it('names every such member, any spelling, nested anywhere', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e9 }), fc.constantFrom('.0', '.000', 'e0', 'E+0', '.0e0'), (n, tail) => {
        const text = JSON.stringify({ ...emptyEvent(), network: { ...emptyEvent().network, asn: 1 } }).replace('"asn":1', `"asn":${n}${tail}`)
        expect(integerSpellingIssues(text).map((i) => [i.code, i.pointer])).toEqual([['wrong_type', '/network/asn']])
        expect(JSON.parse(text).network.asn).toBe(n)
      }),
      { numRuns: 50 },
    )
  })
})

/** The names of the event schema's integer members, read from the published schema file. */
function integerNamesOfSchema(): string[] {
  type Node = { type?: unknown; properties?: Record<string, Node>; items?: Node; $ref?: string }
  const root = eventSchema as Node & { $defs: Record<string, Node> }
  const resolve = (n: Node): Node => (n.$ref ? resolve(root.$defs[n.$ref.slice('#/$defs/'.length)]!) : n)
  const names = new Set<string>()
  const walk = (n: Node) => {
    for (const [name, member] of Object.entries(n.properties ?? {})) {
      const type = resolve(member).type
      if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) names.add(name)
      walk(resolve(member))
    }
    if (n.items) walk(resolve(n.items))
  }
  walk(root)
  return [...names]
}

describe('the first look for a misspelled integer (hasCandidate)', () => {
  // The rule's first form: one regular expression over the integer members' names.
  const names = integerNamesOfSchema()
  const reference = new RegExp(`"(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})"\\s*:\\s*-?[0-9]+(?:\\.|[eE])`)
  const pieces = fc.constantFrom('"status"', '"asn"', '"lat"', '"status', 'status"', '"x"', ':', ' ', '\u00a0', '\t', '\n', '-', '0', '12', '.', 'e', 'E', '5', ',', '{', '}', '"', '\\"', 'a')

  // A member and its value, near-misses included: any name, blanks, colon, sign, digits, what follows.
  const blanks = fc.array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff', '\u0085'), { maxLength: 2 }).map((b) => b.join(''))
  const member = fc
    .tuple(fc.constantFrom('"status"', '"length"', '"asn"', '"lat"', '"x"', 'status"', '"sta"tus"', '"'), blanks, fc.constantFrom(':', ''), blanks, fc.constantFrom('', '-', '+', '--'), fc.constantFrom('', '0', '42', '1e'), fc.constantFrom('.', 'e', 'E', '', ',', '}', '"', '5'))
    .map((parts) => parts.join(''))

  it('says yes exactly where the regular expression over the names matched', () => {
    expect(names).toEqual(expect.arrayContaining(['status', 'length', 'asn']))
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, member), { maxLength: 12 }), (parts) => {
        const text = parts.join('')
        expect(hasCandidate(text)).toBe(reference.test(text))
      }),
      { numRuns: 20_000 },
    )
  })

  it('says yes for an integer member written with a fraction or exponent, whatever the blanks', () => {
    for (const text of ['{"status":200.0}', '{"status" :  2e2}', '{"asn":\u00a0-1.0}', '{"status"\n:\t1E3}']) expect(hasCandidate(text), text).toBe(true)
    for (const text of ['{"status":200}', '{"lat":1.5}', '{"summary":"status: 2.0"}', '{"status":"200.0"}']) expect(hasCandidate(text), text).toBe(false)
  })
})
