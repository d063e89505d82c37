/**
 * The reference service passes every check: started on 127.0.0.1 with the demo data, the
 * keyed plans' rate limit set high (the anonymous plan keeps its default, so the rate-limit
 * checks see real 429s), and the whole suite run against it; the search checks on PostgreSQL too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHECKS, runSuite } from '../../src/conformance/index.js'
import { defaultConfig, DEMO_SECRETS, demoEvents, MemoryStore, type RunningService, startService } from '../../src/service/index.js'
import { PostgresStore } from '../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from '../service/postgres/database.js'

let service: RunningService

beforeAll(async () => {
  const store = new MemoryStore()
  const ingested = await store.ingest(demoEvents())
  expect(ingested.rejected).toEqual([])
  const config = defaultConfig()
  config.plans.registered.rate = { rate: 1000, burst: 1000 }
  config.plans.pro.rate = { rate: 1000, burst: 1000 }
  // Pages of 5: the demo data then fills several, for search-pages-disjoint.
  config.searchPageSize = 5
  service = await startService({ store, config, host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await service?.close()
})

describe('conformance suite against the reference service', () => {
  it('passes every check, the hook checks included', { timeout: 270_000 }, async () => {
    const report = await runSuite({
      baseUrl: service.url,
      apiKey: DEMO_SECRETS.registered,
      proKey: DEMO_SECRETS.pro,
      adminToken: DEMO_SECRETS.admin,
      hookReceiver: true,
      allowWrites: true,
      domains: ['example.com', 'notexample.com'],
      ips: ['2001:db8:cd::1'],
      rate: 'auto',
      seed: Number(process.env.L9KIT_CONFORM_SEED ?? 20240515),
      maxExamples: 25,
      // A bound no healthy answer comes near on a loaded machine: response-time runs, and judges.
      maxResponseTimeMs: 60_000,
      // The live stream's fan-out process starts in Linux's idle class: on a loaded machine it may take a while.
      timeoutMs: 60_000,
    })
    const notPassed = report.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}\n${r.example?.response ?? ''}`)
    expect(notPassed).toEqual([])
    expect(report.results.filter((r) => r.id.startsWith('hook-')).map((r) => r.status)).toEqual(Array(9).fill('passed'))
    expect(report.summary).toMatchObject({ failed: 0, errors: 0 })
    // Recorded for the "< 60 s in CI": printed, not asserted (no timing assertions).
    console.info(`conform against the reference service: ${report.results.length} checks, ${report.requests} requests, ${report.durationMs} ms`)
  })
})

describePostgres('search checks against the reference service on PostgreSQL', () => {
  const schema = freshSchema()
  dropSchemasAfterAll([schema])
  let pgService: RunningService
  let store: PostgresStore
  beforeAll(async () => {
    store = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    await store.ingest(demoEvents())
    const config = defaultConfig()
    config.plans.registered.rate = { rate: 1000, burst: 1000 }
    config.searchPageSize = 5
    pgService = await startService({ store, config, host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await pgService?.close()
    await store?.close()
  })

  it('passes every search check, completeness included', { timeout: 270_000 }, async () => {
    const ids = CHECKS.map((c) => c.id).filter((id) => id.startsWith('search-'))
    const report = await runSuite({ baseUrl: pgService.url, apiKey: DEMO_SECRETS.registered, adminToken: DEMO_SECRETS.admin, allowWrites: true, checks: ids, rate: 'auto', seed: 20240515, maxExamples: 25 })
    expect(report.results.filter((r) => r.status !== 'passed').map((r) => `${r.id} ${r.status}: ${r.message}\n${r.example?.response ?? ''}`)).toEqual([])
    expect(report.results.map((r) => r.id)).toEqual(ids)
    // The 25 events search-complete wrote were deleted again.
    expect(report.notes.some((n) => /^search-complete wrote 25 test events .*; deleted 25 /.test(n))).toBe(true)
  })
})
