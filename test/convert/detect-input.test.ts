/**
 * `--from auto`'s look at an input (src/convert/detect-input.ts): a pretty-printed record whose
 * identifying members lie past the first 4 KiB is recognised from the whole record; every JSON
 * file of the golden corpus converts under `auto` to the events of its own format; what the
 * look holds is bounded by the record size limit.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { autoConverterFor, type Converter, converterNamed, DETECT_BYTES, detectInput, guessedConverter, guessFormat, perRecord } from '../../src/convert/index.js'
import type { Event } from '../../src/schema/index.js'
import { convertFile, GOLDEN_CONTEXT, goldenCases, TOOLS_CORPUS } from '../support/golden.js'

async function* chunks(bytes: Buffer, size = 997): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

async function autoEvents(bytes: Buffer): Promise<{ format: string | undefined; events: Event[] }> {
  const detected = await detectInput(chunks(bytes), GOLDEN_CONTEXT.maxLineBytes)
  if (!detected.guess) return { format: undefined, events: [] }
  const converter: Converter = perRecord(detected.guess, detected.head) ? autoConverterFor(detected.guess.converter.name) : guessedConverter(detected.guess)
  const events: Event[] = []
  for await (const item of converter.convert(detected.stream, GOLDEN_CONTEXT)) if ((item as { kind?: string }).kind !== 'problem') events.push(item as Event)
  return { format: detected.guess.converter.name, events }
}

describe('auto reads a pretty-printed record as far as it must', () => {
  for (const [format, file] of [
    ['shodan', 'shodan/host-late-members.json'],
    ['censys', 'censys/legacy-v1-sorted.json'],
  ] as const) {
    it(`${file}: its identifying members lie past the head, and it converts as --from ${format}`, async () => {
      const bytes = readFileSync(join(TOOLS_CORPUS, file))
      expect(guessFormat(bytes.toString('utf8', 0, DETECT_BYTES)), 'the head alone is not enough').toBeUndefined()
      const got = await autoEvents(bytes)
      expect(got.format).toBe(format)
      const explicit = await convertFile(converterNamed(format)!, join(TOOLS_CORPUS, file))
      expect(got.events.length).toBeGreaterThan(0)
      expect(got.events).toEqual(explicit.events)
    })
  }

  it('holds no more than the record size limit while it looks', async () => {
    // One record nobody claims, far longer than the limit: the look stops at the limit.
    const record = Buffer.from(`{\n  "unknown": "${'x'.repeat(2_000_000)}",\n  "also": 1\n}\n`)
    let pulled = 0
    async function* counted(): AsyncGenerator<Uint8Array> {
      for await (const chunk of chunks(record, 64 * 1024)) {
        pulled += chunk.length
        yield chunk
      }
    }
    const detected = await detectInput(counted(), 256 * 1024)
    expect(detected.guess).toBeUndefined()
    expect(pulled).toBeLessThanOrEqual(256 * 1024 + 2 * 64 * 1024)
    // What was read is given back whole, ahead of the rest.
    let again = 0
    for await (const chunk of detected.stream) again += chunk.length
    expect(again).toBe(record.length)
  })
})

/** Cases holding a record no format claims (`{"host","port"}` alone): `auto` reports it, `--from tlsx` converts it. */
const UNCLAIMED = new Set(['tlsx/edge'])

describe('auto on every JSON file of the golden corpus', () => {
  const dirs = ['shodan', 'censys', 'zgrab2', 'httpx', 'nuclei', 'katana', 'tlsx', 'subfinder', 'dnsx', 'naabu', 'masscan-ndjson']
  for (const dir of dirs) {
    for (const c of goldenCases(dir, ['jsonl', 'json'])) {
      if (c.name.startsWith('damaged')) continue // damage may sit in the first record: `auto` then has nothing to go by
      it(`${dir}/${c.name}: the events of --from ${dir}`, async () => {
        const explicit = await convertFile(converterNamed(dir)!, c.input)
        const got = await autoEvents(readFileSync(c.input))
        expect(got.format, 'recognised').toBeDefined()
        if (UNCLAIMED.has(`${dir}/${c.name}`)) expect(explicit.events).toEqual(expect.arrayContaining(got.events))
        else expect(got.events).toEqual(explicit.events)
      })
    }
  }
})
