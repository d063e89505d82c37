/**
 * `"status": 200.0`: an integer member written with a fraction or exponent. JSON.parse gives
 * 200, so only the text shows it: strict validation refuses it (as the original Go decoder and
 * every shipped type do), lenient accepts it, and normalize writes the integer.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { integerSpellingIssues } from '../../src/validate/index.js'
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
