/**
 * The mutation test has teeth: with a planted weak check (one that passes everything), the
 * mutants it kills are no longer killed as the catalogue says, and the verdict the mutation test
 * asserts (survived() is undefined) fails for each. Two checks are weakened here: plugin-counts
 * (the only killer of plugin-counts-inverted: that mutant survives outright) and bulk-matches
 * (one of two killers of its mutants: who kills them changes, which fails the test just as well).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { pass } from '../../src/conformance/check.js'
import { type Bases, judgeMutant, type Running, service, survived } from './mutants/harness.js'
import { MUTANTS } from './mutants/catalogue.js'
import { sharedStore } from './mutants/shared.js'

const WEAKENED = ['plugin-counts', 'bulk-matches']

vi.mock('../../src/conformance/checks/plugin-counts.js', async (original) => {
  const real = (await original()) as typeof import('../../src/conformance/checks/plugin-counts.js')
  return { pluginCounts: { ...real.pluginCounts, run: async () => pass('weakened: passes everything') } }
})
vi.mock('../../src/conformance/checks/bulk-matches.js', async (original) => {
  const real = (await original()) as typeof import('../../src/conformance/checks/bulk-matches.js')
  return { bulkMatches: { ...real.bulkMatches, run: async () => pass('weakened: passes everything') } }
})

let base: Running
const bases = {} as Bases
beforeAll(async () => {
  base = await service({ store: await sharedStore() })
  bases.read = base.url
})
afterAll(async () => {
  await base?.close()
})

const affected = MUTANTS.filter((m) => m.killedBy.some((id) => WEAKENED.includes(id)))

describe('a planted weak check fails the mutation test', () => {
  it('weakens checks that kill mutants', () => {
    expect(affected.map((m) => m.id).sort()).toEqual(expect.arrayContaining(['bulk-extra-line-everywhere', 'plugin-counts-inverted']))
  })

  it.each(affected.map((m) => [m.id, m] as const))('%s is no longer killed as the catalogue says', { timeout: 120_000 }, async (_, mutant) => {
    const verdict = survived(mutant, await judgeMutant(mutant, bases))
    expect(verdict).toBeDefined()
    if (mutant.killedBy.length === 1) expect(verdict).toMatch(/survived: no check failed/)
  })
})
