/**
 * The bundled corpus against the validators: every valid document is canonical and passes both
 * profiles; every invalid one fails strict with exactly the errors its `.expected.json` lists.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { exampleProtocolEvent, PROTOCOL_NAMES, PROTOCOLS, SSH_EXTENSION } from '../../src/schema/index.js'
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

/** emptyEvent() with every optional member in its place: the protocol objects, the `ssh` extension. */
const FULL = exampleProtocolEvent()
/** Members that may be left out, by the pointer of the object that holds them. */
const OPTIONAL: Record<string, readonly string[]> = {
  '': PROTOCOL_NAMES,
  '/ssh': Object.keys(SSH_EXTENSION),
  '/service/software': ['fingerprint'],
  ...Object.fromEntries(Object.entries(PROTOCOLS).map(([name, part]) => [`/${name}`, Object.keys(part.properties)])),
}

/**
 * Pointers of objects whose members are not in canonical order (the order of emptyEvent(), the
 * protocol objects after it). Maps (`http.header`) hold data, not members, so their order is free.
 */
function orderProblems(doc: unknown, template: unknown, path = ''): string[] {
  if (!isObject(doc) || !isObject(template)) return []
  // Members that may be left out keep their place when present (software.fingerprint, protocol objects).
  const expected = Object.keys(template).filter((m) => m in doc || !OPTIONAL[path]?.includes(m))
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
    expect(orderProblems(doc, FULL), 'members out of canonical order').toEqual([])
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
