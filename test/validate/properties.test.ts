/** Properties of the validators over generated documents (issue 2's must-show). */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lenientEvent, MEMBER_KINDS, nearValidEvent, strictEvent } from '../../src/conformance/arbitraries.js'
import { pointerOf, validate } from '../../src/validate/index.js'

const RUNS = { numRuns: 200 }

const WRONG_FOR: Record<string, unknown> = {
  string: 7,
  integer: 'seven',
  number: 'seven',
  boolean: 'yes',
  strings: 'tcp',
  object: [],
  'nullable-string': 7,
  'nullable-array': 'none',
  map: 'Server: nginx',
}

describe('validate: strict profile over generated documents', () => {
  it('accepts every strict event, with no error and no warning', () => {
    fc.assert(
      fc.property(strictEvent(), (doc) => {
        expect(validate(doc, { profile: 'strict' })).toEqual({ ok: true, errors: [], warnings: [] })
      }),
      RUNS,
    )
  })

  it('a strict event is also lenient-valid', () => {
    fc.assert(fc.property(strictEvent(), (doc) => validate(doc, { profile: 'lenient' }).ok), RUNS)
  })

  it('one member set to a wrong type fails with wrong_type at that member', () => {
    fc.assert(
      fc.property(strictEvent(), fc.constantFrom(...MEMBER_KINDS), (event, [path, kind]) => {
        const doc = JSON.parse(JSON.stringify(event)) as Record<string, unknown>
        let parent = doc
        for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>
        parent[path[path.length - 1]!] = WRONG_FOR[kind]
        const report = validate(doc, { profile: 'strict' })
        expect(report.ok).toBe(false)
        expect(report.errors).toEqual([expect.objectContaining({ code: 'wrong_type', pointer: pointerOf(...path) })])
      }),
      RUNS,
    )
  })

  it('each near-valid document gives exactly its one known error', () => {
    fc.assert(
      fc.property(nearValidEvent(), ({ doc, code, pointer }) => {
        const report = validate(doc, { profile: 'strict' })
        expect(report.ok).toBe(false)
        expect(report.errors.map((e) => [e.code, e.pointer])).toEqual([[code, pointer]])
      }),
      RUNS,
    )
  })
})

describe('validate: lenient profile over generated documents', () => {
  it('accepts what real tools emit', () => {
    fc.assert(
      fc.property(lenientEvent(), (doc) => {
        expect(validate(doc, { profile: 'lenient' }).errors).toEqual([])
      }),
      RUNS,
    )
  })
})
