/**
 * Issue 33, property: for records of any two JSON formats concatenated in any order, `--from
 * auto` gives each record its own format's events (those the format's converter gives for the
 * record alone), or reports it at its line: never another format's event, never a record with
 * neither. Records are generated from the facts of each tool's output (docs/convert.md).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { autoConverterFor, CONVERTERS, type Converter, guessFormat, perRecord } from '../../src/convert/index.js'
import { convertText } from '../support/golden.js'
import { RECORDS } from '../support/record-arbitraries.js'

const NAMES = Object.keys(RECORDS)
const byName = (name: string): Converter => CONVERTERS.find((c) => c.name === name)!

describe('auto on two formats interleaved', () => {
  it('gives every record its own format\'s events, or reports it at its line', async () => {
    const input = fc
      .tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES))
      .filter(([a, b]) => a !== b)
      .chain(([a, b]) =>
        fc
          .tuple(fc.array(RECORDS[a]!, { minLength: 1, maxLength: 4 }), fc.array(RECORDS[b]!, { minLength: 1, maxLength: 4 }))
          .chain(([as, bs]) => fc.shuffledSubarray([...as.map((r) => ({ name: a, r })), ...bs.map((r) => ({ name: b, r }))], { minLength: as.length + bs.length })),
      )
    await fc.assert(
      fc.asyncProperty(input, async (records) => {
        const lines = records.map(({ r }) => JSON.stringify(r))
        const text = `${lines.join('\n')}\n`
        const guess = guessFormat(text.slice(0, 4096))
        expect(guess, `no guess for ${lines[0]}`).toBeDefined()
        expect(perRecord(guess!, text)).toBe(true)
        const got = await convertText(autoConverterFor(guess!.converter.name), text)
        const reported = new Set(got.problems.map((p) => p.line))
        let at = 0
        for (const [i, { name }] of records.entries()) {
          const own = await convertText(byName(name), `${lines[i]}\n`)
          if (reported.has(i + 1)) continue
          // Not reported: exactly its own format's events, in order (never none, never another's).
          expect(own.events.length, `${name} gives no event for ${lines[i]}`).toBeGreaterThan(0)
          expect(got.events.slice(at, at + own.events.length), `line ${i + 1} (${name})`).toEqual(own.events)
          at += own.events.length
        }
        expect(at, 'events beyond the records').toBe(got.events.length)
      }),
      { numRuns: 150 },
    )
  })
})
