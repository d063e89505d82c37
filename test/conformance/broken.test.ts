/**
 * Every broken server under ./broken is caught by the check meant for it and by no other;
 * the correct fake passes every check.
 */
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { HOOKS_NEED_WRITES } from '../../src/conformance/checks/hook-scenario.js'
import { LIVE_NEEDS_WRITES } from '../../src/conformance/checks/live-delivers.js'
import { SEARCH_NEEDS_WRITES } from '../../src/conformance/checks/search-complete.js'
import { LIFECYCLE_NEEDS_WRITES } from '../../src/conformance/checks/lifecycle.js'
import { runSuite, type SuiteReport } from '../../src/conformance/index.js'
import { FAKE_DOMAIN } from './fake/data.js'
import { FAKE_ADMIN_TOKEN, FAKE_PRO_KEY } from './fake/hooks.js'
import { FAKE_KEY, FAKE_LACKS, type Fake, startFake } from './fake/server.js'

const BROKEN = readdirSync(new URL('./broken/', import.meta.url)).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort()

/** The hook checks' options: the hook fixtures (hook-*.ts) and the correct fake are judged with them. */
const HOOK_OPTIONS = { proKey: FAKE_PRO_KEY, adminToken: FAKE_ADMIN_TOKEN, hookReceiver: true, allowWrites: true, hookWaitMs: 3000 }


async function judge(fake: Fake, hooks = false): Promise<SuiteReport> {
  try {
    return await runSuite({ baseUrl: fake.url, apiKey: FAKE_KEY, domains: [FAKE_DOMAIN], rate: 'auto', seed: 1234, maxExamples: 10, excludeChecks: FAKE_LACKS, ...(hooks ? HOOK_OPTIONS : {}) })
  } finally {
    await fake.close()
  }
}

const failing = (report: SuiteReport) => report.results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.id).sort()

describe('conformance suite against fixtures', () => {
  it('has at least 12 broken servers', () => {
    expect(BROKEN.length).toBeGreaterThanOrEqual(12)
  })

  it('has at least 5 broken hook servers', () => {
    expect(BROKEN.filter((f) => f.startsWith('hook-')).length).toBeGreaterThanOrEqual(5)
  })

  it('passes the correct fake on every check, hooks included', async () => {
    const report = await judge(await startFake(), true)
    // response-time is skipped without --max-response-time.
    expect(report.results.filter((r) => r.status !== 'passed' && r.id !== 'response-time').map((r) => [r.id, r.status, r.message])).toEqual([])
    expect(report.results.filter((r) => r.id.startsWith('hook-')).length).toBeGreaterThanOrEqual(9)
  })

  it('skips the hook checks, the live stream’s and search completeness, writing nothing, without --allow-writes (and without the key, token and receiver they need)', async () => {
    const report = await judge(await startFake())
    const skipped = report.results.filter((r) => r.status !== 'passed' && r.id !== 'response-time')
    expect(skipped.map((r) => r.id).every((id) => id.startsWith('hook-') || id.startsWith('live-') || id === 'search-complete' || id === 'created-readable' || id === 'deleted-gone')).toBe(true)
    expect(new Set(skipped.map((r) => `${r.status}: ${r.message}`))).toEqual(new Set([`skipped: ${HOOKS_NEED_WRITES}`, `skipped: ${SEARCH_NEEDS_WRITES}`, `skipped: ${LIFECYCLE_NEEDS_WRITES}`]))
    expect(report.notes).toEqual([])
    const fake = await startFake()
    try {
      const noKey = await runSuite({ baseUrl: fake.url, rate: 'auto', seed: 7, allowWrites: true, checks: ['hook-delivered'] })
      expect(noKey.results[0]).toMatchObject({ status: 'skipped', message: 'needs --pro-key, --admin-token and --hook-receiver' })
      const noToken = await runSuite({ baseUrl: fake.url, rate: 'auto', seed: 7, allowWrites: true, checks: ['live-delivers'] })
      expect(noToken.results[0]).toMatchObject({ status: 'skipped', message: 'needs --admin-token: the live checks ingest the events they wait for' })
      const notWritten = await runSuite({ baseUrl: fake.url, rate: 'auto', seed: 7, checks: ['live-delivers'] })
      expect(notWritten.results[0]).toMatchObject({ status: 'skipped', message: LIVE_NEEDS_WRITES })
    } finally {
      await fake.close()
    }
  })

  it.each(BROKEN)('%s fails exactly the check meant for it', async (file) => {
    const fixture = (await import(`./broken/${file}.ts`)) as { meant: string[]; start: () => Promise<Fake> }
    const report = await judge(await fixture.start(), file.startsWith('hook-'))
    const details = report.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}`)
    expect(failing(report), details.join('\n')).toEqual([...fixture.meant].sort())
    for (const id of fixture.meant) {
      const result = report.results.find((r) => r.id === id)!
      expect(result.example?.request ?? result.example?.input, `${id} names its failing example`).toBeTruthy()
    }
  })
})
