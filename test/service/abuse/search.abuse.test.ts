/**
 * Abuse of GET /search and the web view's results (issue 40): costly queries anonymous and pro,
 * many at once, pages past the plan's cap. Each test attempts the abuse and requires lookups to
 * keep answering: p90 during it within RATIO × the same run's idle p90.
 */
import { beforeAll, expect, it, vi } from 'vitest'
import type { RunningService } from '../../../src/service/index.js'
import { request } from '../support.js'
import { abuseConfig, atRate, COSTLY_REGEX, forEachStore, idleLookups, KEYS, RATIO, ratioOf, serveAbuse, timeLookups, WORDS_128 } from './support.js'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

const EVENTS = 2_000
const search = (service: RunningService, q: string, headers: Record<string, string> = {}, scope = 'service') =>
  request(service.url, `/search?scope=${scope}&q=${encodeURIComponent(q)}`, { headers })

forEachStore('search abuse', (kind) => {
  let service: RunningService
  let idle: number[]
  beforeAll(async () => {
    // A pro key's search may do 300 000 units (a third of a second or so), two searches run at once.
    const config = abuseConfig({ max_searches: 2, plans: { pro: { search_work: 300_000 } } })
    service = await serveAbuse(await kind.make(), config, EVENTS)
    idle = await idleLookups(service.url)
  })

  it('refuses the costly regex anonymously before reading an event (422, its cost and term named), at the plan’s rate', async () => {
    const abuse = atRate(4, 1_000, () => search(service, COSTLY_REGEX))
    const during = await timeLookups(service.url, abuse)
    const answers = await abuse
    for (const a of answers) {
      expect(a.status).toBe(422)
      expect((a.json as { description: string }).description).toMatch(/^The query costs 1204\.2 work units per event it reads; the anonymous plan allows 1000 .* at position 11 \(`summary:~/)
    }
    const { ratio, said } = ratioOf(idle, during)
    expect(ratio, said).toBeLessThan(RATIO)
  })

  it('answers the 128-word query anonymously at the plan’s rate, each within the plan’s work (200 or 422, never more)', async () => {
    const abuse = atRate(4, 1_000, () => search(service, WORDS_128))
    const during = await timeLookups(service.url, abuse)
    for (const a of await abuse) expect([200, 422], a.text).toContain(a.status)
    const { ratio, said } = ratioOf(idle, during)
    expect(ratio, said).toBeLessThan(RATIO)
  })

  it('stops a pro key’s costly regex at the plan’s work or the statement’s time (422), lookups answered meanwhile', async () => {
    const abuse = atRate(3, 200, () => search(service, COSTLY_REGEX, { 'api-key': KEYS.pro }))
    const during = await timeLookups(service.url, abuse)
    for (const a of await abuse) {
      if (kind.name === 'memory') expect((a.json as { description: string }).description).toMatch(/did the work its plan allows one request \(300000 units/)
      expect([200, 422], a.text).toContain(a.status)
    }
    const { ratio, said } = ratioOf(idle, during)
    expect(ratio, said).toBeLessThan(RATIO)
  })

  it('runs at most max_searches at once: the others are 429 with a reason and retry-after', async () => {
    const abuse = Promise.all(Array.from({ length: 6 }, () => search(service, COSTLY_REGEX, { 'api-key': KEYS.pro })))
    const during = await timeLookups(service.url, abuse)
    const answers = await abuse
    const refused = answers.filter((a) => a.status === 429)
    expect(refused.length).toBeGreaterThan(0)
    expect(answers.filter((a) => a.status !== 429).length).toBeGreaterThan(0)
    for (const a of refused) {
      expect((a.json as { description: string }).description).toMatch(/^The service runs at most 2 searches at once/)
      expect(a.headers['retry-after']).toBe('1')
    }
    const { ratio, said } = ratioOf(idle, during)
    expect(ratio, said).toBeLessThan(RATIO)
  })

  it('keeps the web view’s results within the plan’s pages and cost (403 past page 4, 422 for the costly regex)', async () => {
    const page = (q: string, n: number) => request(service.url, `/search?q=${encodeURIComponent(q)}&scope=service&page=${n}`, { headers: { accept: 'text/html' } })
    const beyond = await page('port:22', 5)
    expect(beyond.status).toBe(403)
    expect(beyond.text).toContain('may read result pages 0 to 4; page 5 is beyond them')
    const costly = await page(COSTLY_REGEX, 0)
    expect(costly.status).toBe(422)
    expect(costly.text).toContain('the anonymous plan allows 1000')
    expect((await page('port:22', 4)).status).toBe(200)
  })
})
