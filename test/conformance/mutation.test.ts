/**
 * The mutation test (issue 44): `l9kit conform` against every mutant of the reference service
 * (test/conformance/mutants/), each run small (the family of checks it is meant for, 5 examples,
 * no pacing) and several at once. Each mutant must be killed by exactly the checks it names:
 * a weakened check leaves a mutant alive or changes who kills it, and this test fails
 * (mutation-weak.test.ts shows it). Documented limits (docs/conformance.md) must survive as
 * documented. docs/conformance.md's kill table must be the one the catalogue gives.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checksByFamily, CHECKS, familyOf } from '../../src/conformance/index.js'
import { type Bases, failing, judgeMutant, type Running, service, survived } from './mutants/harness.js'
import { killTable, LIMITS, MUTANTS } from './mutants/catalogue.js'
import { sharedStore } from './mutants/shared.js'

let base: Running
const bases = {} as Bases
const started = performance.now()

beforeAll(async () => {
  base = await service({ store: await sharedStore() })
  bases.read = base.url
})

afterAll(async () => {
  await base?.close()
  console.info(`mutation test: ${MUTANTS.length} mutants and ${LIMITS.length} limits in ${Math.round(performance.now() - started)} ms`)
})

describe('the mutation harness', () => {
  it('has at least 40 mutants, unique ids, each killer a check of the suite, every family covered', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(40)
    expect(new Set(MUTANTS.map((m) => m.id)).size).toBe(MUTANTS.length)
    const ids = new Set(CHECKS.map((c) => c.id))
    for (const m of MUTANTS) for (const id of [...m.killedBy, ...m.checks]) expect(ids.has(id), `${m.id}: ${id}`).toBe(true)
    const killed = new Set(MUTANTS.flatMap((m) => m.killedBy.map((id) => familyOf(CHECKS.find((c) => c.id === id)!))))
    for (const { family } of checksByFamily(CHECKS)) expect(killed.has(family.id), family.id).toBe(true)
  })

  it('docs/conformance.md has the kill table of this catalogue', () => {
    const doc = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8')
    expect(doc).toContain(killTable())
  })
})

describe.concurrent('every mutant is killed by the checks it names', () => {
  it.each(MUTANTS.map((m) => [m.id, m] as const))('%s', { timeout: 200_000 }, async (_, mutant) => {
    const report = await judgeMutant(mutant, bases)
    expect(survived(mutant, report)).toBeUndefined()
  })

  it.each(LIMITS.map((m) => [m.id, m] as const))('%s survives, as documented', { timeout: 120_000 }, async (_, mutant) => {
    const report = await judgeMutant(mutant, bases)
    expect(failing(report), `a check now kills ${mutant.id}: move it to the mutants, and out of the documented limits`).toEqual([])
  })
})
