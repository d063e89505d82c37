/**
 * Issue 42, property: the same JSON value gives the same events whatever its whitespace. Any
 * records of a JSON format, written as JSON Lines, pretty-printed (`jq .`), as one array on one
 * line (Python's `json.dump`) or as a pretty-printed array, and cut into chunks anywhere,
 * convert to the events their JSON Lines give under the explicit format, and under `--from
 * auto` as the CLI runs it (detectInput, then the converter it picks). A member before the
 * identifying ones may push those past the 4 KiB `auto` looks at first (Shodan and Censys
 * write members in any order): `auto` then reads the first record whole.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { autoConverterFor, type Converter, converterNamed, detectInput, guessedConverter, perRecord } from '../../src/convert/index.js'
import type { Event } from '../../src/schema/index.js'
import { GOLDEN_CONTEXT } from '../support/golden.js'
import { RECORDS } from '../support/record-arbitraries.js'

/** Formats whose every record is JSON (the others have JSON modes beside their lines). */
const NAMES = Object.keys(RECORDS).filter((name) => converterNamed(name)?.readsRecords === true)

const SHAPES = ['lines', 'pretty', 'array', 'pretty-array'] as const
type Shape = (typeof SHAPES)[number]

function written(records: object[], shape: Shape): string {
  if (shape === 'lines') return `${records.map((r) => JSON.stringify(r)).join('\n')}\n`
  if (shape === 'pretty') return `${records.map((r) => JSON.stringify(r, null, 2)).join('\n')}\n`
  if (shape === 'array') return `${JSON.stringify(records)}\n`
  return `${JSON.stringify(records, null, 2)}\n`
}

async function* chunked(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function events(converter: Converter, input: AsyncIterable<Uint8Array>): Promise<Event[]> {
  const out: Event[] = []
  for await (const item of converter.convert(input, GOLDEN_CONTEXT)) if ((item as { kind?: string }).kind !== 'problem') out.push(item as Event)
  return out
}

/** `--from auto` as the CLI runs it (cli/commands/convert.ts). */
async function auto(text: string, chunk: number): Promise<Event[] | undefined> {
  const detected = await detectInput(chunked(text, chunk), GOLDEN_CONTEXT.maxLineBytes)
  if (!detected.guess) return undefined
  const converter = perRecord(detected.guess, detected.head) ? autoConverterFor(detected.guess.converter.name) : guessedConverter(detected.guess)
  return events(converter, detected.stream)
}

/** A member no format reads, placed first: up to 6 KB, so the identifying members may lie past the head. */
const filler = fc.option(fc.integer({ min: 1, max: 6000 }).map((n) => ({ notes: 'n'.repeat(n) })), { nil: undefined })

describe('the same records, whatever their whitespace', () => {
  it('convert to the same events under the explicit format and under auto', async () => {
    const input = fc.constantFrom(...NAMES).chain((name) =>
      fc.record({
        name: fc.constant(name),
        records: fc.array(fc.tuple(filler, RECORDS[name]!), { minLength: 1, maxLength: 3 }).map((rs) => rs.map(([pad, r]) => ({ ...pad, ...r }))),
        shape: fc.constantFrom(...SHAPES),
        chunk: fc.integer({ min: 7, max: 5000 }),
      }),
    )
    await fc.assert(
      fc.asyncProperty(input, async ({ name, records, shape, chunk }) => {
        const explicit = converterNamed(name)!
        const expected = await events(explicit, chunked(written(records, 'lines'), 1 << 20))
        expect(expected.length, `${name} gives events for its records`).toBeGreaterThan(0)
        const text = written(records, shape)
        expect(await events(explicit, chunked(text, chunk)), `--from ${name}, ${shape}`).toEqual(expected)
        expect(await auto(text, chunk), `--from auto, ${name} ${shape}`).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })
})
