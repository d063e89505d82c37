/**
 * The format owner's current model (Python `l9format` 1.4.0+), reproduced from the facts in
 * test/interop/owner/l9format_model.py (the library itself is not reachable from CI) and run by
 * Debian's /usr/bin/python3: every document we have — corpus/valid, every event the converters'
 * golden files hold (corpus/tools), generated events with protocol objects — loads into it (its
 * loader checks every type) and dumps back to the same protocol objects, member for member and
 * in the same order, with absent members left out and `None` never written; and our strict
 * validator accepts everything it dumps.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { lenientEvent, strictEvent } from '../../src/conformance/arbitraries.js'
import { normalize } from '../../src/normalize/index.js'
import { PROTOCOL_NAMES, PROTOCOLS, SSH_EXTENSION } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'
import { documentNames, INVALID_DIR, readJson, ROOT, VALID_DIR } from '../corpus/files.js'
import { needs, run, works } from '../languages/support.js'

const PYTHON = '/usr/bin/python3'
const MODEL = join(ROOT, 'test', 'interop', 'owner', 'l9format_model.py')
const TOOLS = join(ROOT, 'corpus', 'tools')

/** Each line through the model: its dump, parsed, or its `error: …` text. */
async function throughModel(docs: unknown[]): Promise<unknown[]> {
  const result = await run(PYTHON, [MODEL], { input: docs.map((d) => JSON.stringify(d)).join('\n') + '\n' })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const lines = result.stdout.split('\n').slice(0, -1)
  expect(lines).toHaveLength(docs.length)
  return lines.map((line) => (line.startsWith('error: ') ? line : JSON.parse(line)))
}

/** Every event the converters' golden files hold. */
function converterEvents(): unknown[] {
  const out: unknown[] = []
  for (const tool of readdirSync(TOOLS)) {
    for (const file of readdirSync(join(TOOLS, tool)).filter((f) => f.endsWith('.expected.jsonl'))) {
      for (const line of readFileSync(join(TOOLS, tool, file), 'utf8').split('\n')) if (line.trim() !== '') out.push(JSON.parse(line))
    }
  }
  return out
}

/** Generated events: strict ones with protocol objects, and lenient ones as normalise makes them. */
function generatedEvents(): unknown[] {
  const strict = fc.sample(strictEvent({ protocols: 'always' }), { numRuns: 300, seed: 1_4_0 })
  const lenient = fc.sample(lenientEvent({ protocols: 'always' }), { numRuns: 200, seed: 2026 }).map((doc) => {
    const result = normalize(doc)
    if (!result.ok) throw new Error(`a lenient event did not normalise: ${JSON.stringify(result.errors)}`)
    return result.event
  })
  return [...strict, ...lenient]
}

/** The protocol part of an event as text: each protocol object and `ssh`, members in their order. */
const protocolPart = (doc: Record<string, unknown>) => JSON.stringify([doc.ssh, ...PROTOCOL_NAMES.map((name) => (name in doc ? doc[name] : '(absent)'))])

const hasNull = (value: unknown): boolean =>
  value === null || (typeof value === 'object' && Object.values(value as object).some(hasNull))

needs("the format owner's model (Python, from the facts)", works(PYTHON, ['--version']), `${PYTHON} (Debian python3)`, () => {
  const sets = {
    'corpus/valid': () => documentNames(VALID_DIR).map((name) => readJson(VALID_DIR, name)),
    "the converters' golden events (corpus/tools)": converterEvents,
    'generated events with protocol objects': generatedEvents,
  }

  it.each(Object.keys(sets))('%s: load, and dump back the same protocol objects member for member', async (set) => {
    const docs = sets[set as keyof typeof sets]() as Record<string, unknown>[]
    expect(docs.length).toBeGreaterThan(10)
    const dumped = (await throughModel(docs)) as Record<string, unknown>[]
    expect(dumped.filter((d) => typeof d === 'string')).toEqual([])
    const different = docs.filter((doc, i) => protocolPart(doc) !== protocolPart(dumped[i]!))
    expect(different.map((doc) => protocolPart(doc))).toEqual([])
    for (const dump of dumped) {
      // Absent members are left out, never written as null.
      for (const name of PROTOCOL_NAMES) if (name in dump) expect(hasNull(dump[name])).toBe(false)
      // What the model writes, our strict validator accepts.
      expect(validate(dump, { profile: 'strict' }).errors).toEqual([])
    }
  }, 180_000)

  it('the generated set does exercise every object and every member', async () => {
    const docs = generatedEvents() as Record<string, any>[]
    for (const [name, part] of Object.entries(PROTOCOLS)) {
      expect(docs.filter((d) => name in d).length, name).toBeGreaterThan(20)
      for (const member of Object.keys(part.properties)) expect(docs.filter((d) => member in (d[name] ?? {})).length, `${name}.${member}`).toBeGreaterThan(5)
    }
    for (const member of Object.keys(SSH_EXTENSION)) expect(docs.filter((d) => member in d.ssh).length, `ssh.${member}`).toBeGreaterThan(5)
  })

  it('its loader checks types: the corpus documents whose protocol members have the wrong type fail there too', async () => {
    const names = documentNames(INVALID_DIR).filter((name) => PROTOCOL_NAMES.some((p) => name.includes(`-${p}-`)) || /protocol|kex/.test(name))
    expect(names.length).toBeGreaterThanOrEqual(8)
    const docs = names.map((name) => readJson(INVALID_DIR, name))
    const results = await throughModel(docs)
    // Every one is refused, naming the member our validator names (except `null`, which the owner reads as absent).
    results.forEach((result, i) => {
      const pointer = (readJson(INVALID_DIR, names[i]!.replace(/\.json$/, '.expected.json')) as { pointer: string }[])[0]!.pointer
      if (names[i]!.includes('member-null') || names[i]!.includes('object-null') || names[i]!.includes('out-of-range')) expect(result, names[i]).not.toEqual(expect.stringMatching(/^error/))
      else expect(result, names[i]).toEqual(expect.stringMatching(new RegExp(`^error: ${pointer.replace(/\//g, '\\/')}: expected`)))
    })
  })
})
