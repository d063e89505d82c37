/**
 * The bundled corpus against the validators: every valid document is canonical and passes both
 * profiles; every invalid one fails strict with exactly the errors its `.expected.json` lists.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { emptyEvent } from '../../src/schema/index.js'
import { validate } from '../../src/validate/index.js'
import {
  documentNames,
  type Expected,
  expectationNames,
  expectationOf,
  INVALID_DIR,
  issueKeys,
  readJson,
  VALID_DIR,
} from './files.js'

const valid = documentNames(VALID_DIR)
const invalid = documentNames(INVALID_DIR)

type Node = Record<string, unknown>
const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)
const MODULE_MEMBERS = ['name', 'version', 'fingerprint']

/**
 * Pointers of objects whose members are not in canonical order (the order of emptyEvent()).
 * Maps (`http.header`) hold data, not members, so their order is free.
 */
function orderProblems(doc: unknown, template: unknown, path = ''): string[] {
  if (!isObject(doc) || !isObject(template)) return []
  let expected = Object.keys(template)
  // software.fingerprint may be omitted; the rest keeps its place.
  if (path === '/service/software' && !('fingerprint' in doc)) expected = expected.filter((m) => m !== 'fingerprint')
  const problems = Object.keys(doc).join() === expected.join() ? [] : [path || '/']
  for (const member of expected) {
    if (member === 'header') continue
    problems.push(...orderProblems(doc[member], template[member], `${path}/${member}`))
  }
  const modules = path === '' ? (doc.service as { software?: { modules?: unknown } })?.software?.modules : undefined
  if (Array.isArray(modules)) {
    modules.forEach((m, i) => {
      if (isObject(m) && Object.keys(m).join() !== MODULE_MEMBERS.join()) problems.push(`/service/software/modules/${i}`)
    })
  }
  return problems
}

describe('corpus layout', () => {
  it('holds at least 20 valid and 30 invalid documents', () => {
    expect(valid.length).toBeGreaterThanOrEqual(20)
    expect(invalid.length).toBeGreaterThanOrEqual(30)
  })

  it('pairs every invalid document with its expected errors, and nothing else', () => {
    expect(invalid.filter((name) => !existsSync(join(INVALID_DIR, expectationOf(name))))).toEqual([])
    expect(expectationNames(INVALID_DIR)).toEqual(invalid.map(expectationOf).sort())
    expect(expectationNames(VALID_DIR)).toEqual([])
  })
})

describe('corpus/valid', () => {
  it.each(valid)('%s passes strict and lenient', (name) => {
    const doc = readJson(VALID_DIR, name)
    expect(validate(doc, { profile: 'strict' })).toEqual({ ok: true, errors: [], warnings: [] })
    expect(validate(doc, { profile: 'lenient' })).toMatchObject({ ok: true, errors: [] })
    expect(orderProblems(doc, emptyEvent()), 'members out of canonical order').toEqual([])
  })
})

describe('corpus/invalid', () => {
  it.each(invalid)('%s fails strict with exactly its expected errors', (name) => {
    const expected = readJson(INVALID_DIR, expectationOf(name)) as Expected[]
    expect(expected.length).toBeGreaterThan(0)
    const report = validate(readJson(INVALID_DIR, name), { profile: 'strict' })
    expect(report.ok).toBe(false)
    expect(issueKeys(report.errors)).toEqual(issueKeys(expected))
  })
})
