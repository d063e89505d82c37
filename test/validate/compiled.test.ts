/**
 * The ahead-of-time validators in src/validate/compiled are what `npm run generate` makes from
 * the current schemas (a stale copy would validate against an old schema), and they judge like
 * validators compiled at run time from the same documents.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { validatorFiles } from '../../scripts/generate-validators.js'
import { DOCUMENT_NAMES, emptyEvent, exampleAggregation, exampleLeakEvent, exampleProtocolEvent, schemaDocument } from '../../src/schema/index.js'
import { compiledValidator } from '../../src/validate/ajv.js'
import { toIssues } from '../../src/validate/codes.js'

const root = join(import.meta.dirname, '..', '..')

describe('ahead-of-time validators', () => {
  it('are current: regenerating gives the committed files byte for byte', () => {
    for (const file of validatorFiles()) expect(readFileSync(join(root, file.path), 'utf8'), file.path).toBe(file.text)
  })

  // Many documents (a generous limit for a busy machine; no timing is asserted).
  it('give the verdicts, errors and issues of validators compiled at run time, for documents broken anywhere', { timeout: 180_000 }, () => {
    // The generated code is shared between documents and compiled without annotations (issue
    // 39): every member of each kind of document, set to values of every type or left out,
    // must still be judged as ajv judges the published document. Same options as generated.
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, inlineRefs: false, unicodeRegExp: false })
    const event = exampleProtocolEvent()
    const leak = exampleLeakEvent()
    const bases: Record<string, unknown[]> = {
      event: [event, leak],
      'event.lenient': [event, leak],
      'lookup-result': [{ Services: [event], Leaks: [leak] }],
      aggregation: [exampleAggregation()],
      'aggregation.lenient': [exampleAggregation()],
    }
    const WRONG = [null, 7, 1.5, -1, 'x', [], {}, true, ['x'], undefined]
    const strip = (errors: typeof check.errors) => (errors ?? []).map(({ instancePath, schemaPath, keyword, params, data }) => ({ instancePath, schemaPath, keyword, params, data }))
    let check = compiledValidator('event')
    let compared = 0
    for (const [name, docs] of Object.entries(bases) as [(typeof DOCUMENT_NAMES)[number], unknown[]][]) {
      const runtime = ajv.compile(schemaDocument(name))
      check = compiledValidator(name)
      for (const sample of docs.flatMap((doc) => broken(doc, WRONG))) {
        const judged = (ok: boolean, errors: typeof check.errors) => JSON.stringify({ ok, errors: strip(errors), issues: toIssues(errors ?? []) })
        const got = judged(check(sample), check.errors)
        const want = judged(runtime(sample), runtime.errors)
        // One assertion per difference only (thousands of samples).
        if (got !== want) expect({ name, sample, got: JSON.parse(got) }).toEqual({ name, sample, got: JSON.parse(want) })
        compared++
      }
    }
    expect(compared).toBeGreaterThan(5000)
  })

  it('give the verdicts and errors of validators compiled at run time', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, unicodeRegExp: false })
    const event = emptyEvent()
    const samples: unknown[] = [event, { ...event, port: 80 }, { ...event, time: 'yesterday', ip: 1 }, {}, [], null, 'x', { Services: null, Leaks: null }]
    for (const name of DOCUMENT_NAMES) {
      const runtime = ajv.compile(schemaDocument(name))
      for (const sample of samples) {
        const ok = runtime(sample)
        expect(compiledValidator(name)(sample), name).toBe(ok)
        const strip = (errors: typeof runtime.errors) => (errors ?? []).map(({ instancePath, schemaPath, keyword, params, data }) => ({ instancePath, schemaPath, keyword, params, data }))
        expect(strip(compiledValidator(name).errors), name).toEqual(strip(runtime.errors))
      }
    }
  })
})

/** The document, then copies with one member (at any depth) set to each of `values` (undefined: left out). */
function broken(doc: unknown, values: readonly unknown[]): unknown[] {
  const out: unknown[] = [doc]
  const paths: (string | number)[][] = []
  const walk = (value: unknown, path: (string | number)[]) => {
    if (path.length > 0) paths.push(path)
    if (value !== null && typeof value === 'object') for (const [key, v] of Object.entries(value)) walk(v, [...path, Array.isArray(value) ? Number(key) : key])
  }
  walk(doc, [])
  for (const path of paths) {
    for (const value of values) {
      const copy = structuredClone(doc) as Record<string | number, unknown>
      let parent = copy
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
      if (value === undefined) delete parent[path.at(-1)!]
      else parent[path.at(-1)!] = value
      out.push(copy)
    }
  }
  return out
}
