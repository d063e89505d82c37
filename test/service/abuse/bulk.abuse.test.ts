/**
 * Abuse of the bulk export (issue 40): more exports than a key and the service allow, stalled
 * exports, exports past the plan's work, costly exports dropped by their clients. Lookups keep
 * answering throughout (p90 within RATIO × the same run's idle p90).
 */
import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http'
import { beforeAll, expect, it, vi } from 'vitest'
import type { RunningService } from '../../../src/service/index.js'
import { sharedEvalThread } from '../../../src/service/search/eval-thread.js'
import type { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { request } from '../support.js'
import { abuseConfig, COSTLY_REGEX, forEachStore, KEYS, RATIO, serveAbuse, underAbuse, withService } from './support.js'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const EVENTS = 2_000

/** Opens an export and leaves its answer unread (the client holds it open); resolves at its head. */
function openExport(service: RunningService, q: string, key = KEYS.pro): Promise<{ req: ClientRequest; res: IncomingMessage }> {
  const url = new URL(service.url)
  const req = httpRequest({ host: url.hostname, port: url.port, path: `/bulk/service?q=${encodeURIComponent(q)}`, headers: { 'api-key': key }, agent: false })
  return new Promise((resolve, reject) => {
    req.on('response', (res) => {
      res.pause()
      resolve({ req, res })
    })
    req.on('error', reject)
    req.end()
  })
}

/** Resolves when `condition` holds, checking every 50 ms (bounded by the test's timeout). */
async function eventually(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50))
}

forEachStore('bulk export abuse', (kind) => {
  let service: RunningService
  beforeAll(async () => {
    // Two exports per key, three in all; an export's work small.
    const config = abuseConfig({ max_bulk_exports: 3, plans: { pro: { export_work: 10_000 } } })
    service = await serveAbuse(await kind.make({ statementTimeoutMs: 60_000 }), config, EVENTS)
  })

  it('runs at most bulk_exports per key and max_bulk_exports in all (429 with the reason), and frees the places as exports end', async () => {
    const held = [await openExport(service, '*'), await openExport(service, '*')]
    const perKey = await request(service.url, '/bulk/service?q=*', { headers: { 'api-key': KEYS.pro } })
    expect(perKey.status).toBe(429)
    expect((perKey.json as { description: string }).description).toMatch(/^The pro plan allows 2 bulk exports at once per key/)
    held.push(await openExport(service, '*', KEYS.pro2))
    const inAll = await request(service.url, '/bulk/service?q=*', { headers: { 'api-key': KEYS.pro2 } })
    expect(inAll.status).toBe(429)
    expect((inAll.json as { description: string }).description).toMatch(/^The service runs at most 3 bulk exports at once/)
    expect(inAll.headers['retry-after']).toBe('1')
    for (const { req } of held) req.destroy()
    await eventually(async () => (await request(service.url, '/bulk/service?q=ip:198.51.100.1', { headers: { 'api-key': KEYS.pro } })).status === 200)
  })

  it('cuts an export whose client takes nothing for bulk_idle_timeout_ms, and frees its place', async () => {
    // An answer far larger than the sockets' buffers hold (about 25 MB), left unread.
    const config = abuseConfig({ bulk_idle_timeout_ms: 1_000, plans: { pro: { bulk_exports: 1 } } })
    const { ratio, said } = await withService(await kind.make(), config, 12_000, async (stalled) => {
      const exportOf = () => request(stalled.url, '/bulk/service?q=ip:198.51.100.1', { headers: { 'api-key': KEYS.pro } })
      return underAbuse(stalled.url, async () => {
        const { req } = await openExport(stalled, '*')
        // The key's one export is taken while the stalled one is kept…
        expect((await exportOf()).status).toBe(429)
        // …and free again once the service has cut it (the client, reading nothing, does not even notice).
        await eventually(async () => (await exportOf()).status === 200)
        req.destroy()
      })
    })
    expect(ratio, said).toBeLessThan(RATIO)
  })

  it('stops an export at the plan’s export_work: an incomplete answer (or a 422 before its first line)', async () => {
    const url = new URL(service.url)
    const outcome = await new Promise<string>((resolve) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: `/bulk/service?q=${encodeURIComponent('summary:lorem')}`, headers: { 'api-key': KEYS.pro }, agent: false }, (res) => {
        if (res.statusCode !== 200) return resolve(String(res.statusCode))
        res.resume()
        res.on('end', () => resolve(res.complete ? 'complete' : 'cut'))
        res.on('error', () => resolve('cut'))
        res.on('close', () => resolve(res.complete ? 'complete' : 'cut'))
      })
      req.on('error', () => resolve('cut'))
      req.end()
    })
    // 2 000 events of about 12 units each are more than 10 000 units; PostgreSQL does not count work (its statements have a timeout instead).
    if (kind.name === 'memory') expect(['cut', '422']).toContain(outcome)
    else expect(outcome).toBe('complete')
  })

  // Its lookups' p90 ratio met 17.5 once in CI on PostgreSQL (80 lookups during the abuse, where a
  // few slow ones move p90), passing in every other run: retried, so a real stall (work that goes
  // on after the clients left) still fails all three tries.
  it('ten costly exports dropped by their clients stop their work at once: lookups answered meanwhile, the store’s searches usable again', { retry: 2 }, async () => {
    const config = abuseConfig({ max_bulk_exports: 10, plans: { pro: { bulk_exports: 10 } } })
    // Statements that would run for minutes: only cancelling them frees the pool within the test's time.
    const costlyStore = await kind.make({ statementTimeoutMs: 600_000, searchTimeoutMs: 600_000 })
    const { ratio, said } = await withService(costlyStore, config, EVENTS, async (costly) => {
      const measured = await underAbuse(costly.url, async () => {
        const url = new URL(costly.url)
        const reqs = Array.from({ length: 10 }, () => {
          const req = httpRequest({ host: url.hostname, port: url.port, path: `/bulk/service?q=${encodeURIComponent(COSTLY_REGEX)}`, headers: { 'api-key': KEYS.pro }, agent: false })
          req.on('error', () => undefined)
          req.end()
          return req
        })
        // The exports are under way (their statements running, their batches evaluated)…
        await eventually(async () => (await busy(kind.name, costlyStore)) > 0)
        // …when their clients go away: the work stops (statements cancelled, no further batch).
        for (const req of reqs) req.destroy()
        await eventually(async () => (await busy(kind.name, costlyStore)) === 0)
      })
      // A search on the same store answers (the search pool, or the evaluation thread, is free again).
      const after = await request(costly.url, `/search?scope=service&q=${encodeURIComponent('+port:22 +summary:~"SSH-2.0-OpenSSH_7 .*"')}`, { headers: { 'api-key': KEYS.pro } })
      expect(after.status, after.text).toBe(200)
      return measured
    })
    expect(ratio, said).toBeLessThan(RATIO)
  })
})

/**
 * What the store is still doing for searches: PostgreSQL, the statements its search pool runs
 * (pg_stat_activity, by the pool's application name); the memory store, batches the evaluation
 * thread has not answered.
 */
async function busy(kind: 'memory' | 'postgres', store: unknown): Promise<number> {
  if (kind === 'memory') return sharedEvalThread(10)?.pending ?? 0
  const pg = store as PostgresStore
  const [row] = await pg.sql<{ n: string }[]>`
    SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND application_name = ${`l9kit search ${pg.schema}`}`
  return Number(row!.n)
}
