/**
 * Every broken server under ./broken is caught by the check meant for it and by no other;
 * the correct fake passes every check.
 */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runSuite, type SuiteReport } from '../../src/conformance/index.js'
import { FAKE_DOMAIN } from './fake/data.js'
import { FAKE_KEY, type Fake, startFake } from './fake/server.js'

const BROKEN = readdirSync(new URL('./broken/', import.meta.url)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort()

async function judge(fake: Fake): Promise<SuiteReport> {
  try {
    return await runSuite({ baseUrl: fake.url, apiKey: FAKE_KEY, domains: [FAKE_DOMAIN], rate: 'auto', seed: 1234, maxExamples: 10 })
  } finally {
    await fake.close()
  }
}

const failing = (report: SuiteReport) => report.results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.id).sort()

describe('conformance suite against fixtures', () => {
  it('has at least 12 broken servers', () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(12)
  })

  it('passes the correct fake on every check (hooks skipped: it has no hook API)', async () => {
    const report = await judge(await startFake())
    expect(report.results.filter((r) => r.status !== 'passed').map((r) => [r.id, r.status, r.message])).toEqual([
      ['hook-delivery', 'skipped', 'needs --pro-key and --hook-receiver'],
    ])
  })

  it.each(BROKEN)('%s fails exactly the check meant for it', async (file) => {
    const fixture = (await import(`./broken/${file}.ts`)) as { meant: string[]; start: () => Promise<Fake> }
    const report = await judge(await fixture.start())
    const details = report.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}`)
    expect(failing(report), details.join('\n')).toEqual([...fixture.meant].sort())
    for (const id of fixture.meant) {
      const result = report.results.find((r) => r.id === id)!
      expect(result.example?.request ?? result.example?.input, `${id} names its failing example`).toBeTruthy()
    }
  })
})
