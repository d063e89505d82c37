/**
 * GET /search over HTTP on both stores: pages newest first with no overlap, `200 []` past the
 * last page, 400s for scope, query and page (the query error names the position and the term),
 * the plans' page caps (403), the page size from the configuration, the shared rate limit, 422
 * for a search the store refuses as too costly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemoryStore, type RunningService, startService, type Store } from '../../src/service/index.js'
import { PostgresStore } from '../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './postgres/database.js'
import { KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'
import type { Event } from '../../src/schema/index.js'

/** 45 service events on 192.0.2.0/24 (five seconds apart), 5 leaks; the newest is service 44. */
const EVENTS: Event[] = [
  ...Array.from({ length: 45 }, (_, i) =>
    makeEvent({ event_source: i % 3 === 0 ? 'HttpPlugin' : 'SshPlugin', ip: `192.0.2.${i + 1}`, port: i % 2 === 0 ? '443' : '22', time: `2026-11-24T10:${String(Math.floor(i / 12)).padStart(2, '0')}:${String((i % 12) * 5).padStart(2, '0')}Z`, geoip: { ...makeEvent({}).geoip, country_iso_code: i % 4 === 0 ? 'DE' : 'FR' } }),
  ),
  ...Array.from({ length: 5 }, (_, i) => makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: `198.51.100.${i + 1}`, time: `2026-11-2${i}T00:00:00Z`, leak: { ...makeEvent({}).leak, severity: 'high', stage: 'open' } })),
]

const json = { accept: 'application/json' }
const ips = (body: unknown) => (body as Event[]).map((e) => e.ip)

function searchCases(service: () => RunningService) {
  const get = (path: string, headers: Record<string, string> = json) => request(service().url, path, { headers })

  it('answers pages of 20 newest first, then 200 [] past the last page; pages neither overlap nor skip', async () => {
    const seen: string[] = []
    for (let page = 0; ; page++) {
      const r = await get(`/search?scope=service&q=*&page=${page}`, { ...json, 'api-key': KEYS.pro })
      expect(r.status).toBe(200)
      expect(r.headers['content-type']).toBe('application/json')
      if ((r.json as unknown[]).length === 0) break
      expect((r.json as unknown[]).length).toBe(page < 2 ? 20 : 5)
      seen.push(...ips(r.json))
    }
    expect(seen).toEqual(EVENTS.slice(0, 45).map((e) => e.ip).reverse())
    expect(new Set(seen).size).toBe(45)
  })

  it('keeps each scope to its events and applies the query (a - term excludes)', async () => {
    const leaks = await get('/search?scope=leak&q=%2Bseverity%3Ahigh')
    expect(ips(leaks.json)).toEqual(['198.51.100.5', '198.51.100.4', '198.51.100.3', '198.51.100.2', '198.51.100.1'])
    const r = await get(`/search?scope=service&q=${encodeURIComponent('+port:443 -country:Germany +plugin:HttpPlugin')}`)
    const expected = EVENTS.slice(0, 45).filter((e) => e.port === '443' && e.geoip.country_iso_code !== 'DE' && e.event_source === 'HttpPlugin').map((e) => e.ip).reverse()
    expect(expected.length).toBeGreaterThan(0)
    expect(ips(r.json)).toEqual(expected)
    expect((await get('/search?scope=service&q=ip:198.51.100.1')).json).toEqual([])
    // A page absent means page 0, q absent means everything.
    expect(ips((await get('/search?scope=leak')).json)).toHaveLength(5)
  })

  it('answers 400 for a missing or wrong scope and a bad page, with the error body', async () => {
    for (const [path, text] of [
      ['/search?q=*', 'The scope parameter is missing: give scope=service or scope=leak.'],
      ['/search?scope=services&q=*', 'The scope parameter "services" is not a scope: give scope=service or scope=leak.'],
      ['/search?scope=leak&page=-1', 'The page parameter must be an integer from 0 to 1000000 (pages count from 0; got "-1").'],
      ['/search?scope=leak&page=x', 'The page parameter must be an integer from 0 to 1000000 (pages count from 0; got "x").'],
    ] as const) {
      const r = await get(path)
      expect(r.status, path).toBe(400)
      expect(r.json, path).toEqual({ title: 'Bad Request', description: text })
    }
  })

  it('answers a bad query 400 naming the position and the offending term (did you mean)', async () => {
    const r = await get(`/search?scope=service&q=${encodeURIComponent('+port:443 +countri:FR')}`)
    expect(r.status).toBe(400)
    expect((r.json as { description: string }).description).toBe('bad query at position 12 (`countri`): there is no field `countri`; did you mean `country`?')
    const scope = await get(`/search?scope=service&q=${encodeURIComponent('severity:high')}`)
    expect(scope.status).toBe(400)
    expect((scope.json as { description: string }).description).toMatch(/^bad query at position 1 \(`severity`\): `leak.severity` is a field of leaks/)
    for (const q of ['(', '"', 'time:>2026-13-01', 'ip:300.1.1.1', 'summary:>5', 'a:~"(x*)*\\1"']) {
      const bad = await get(`/search?scope=leak&q=${encodeURIComponent(q)}`)
      expect(bad.status, q).toBe(400)
      expect((bad.json as { description: string }).description, q).toMatch(/^bad query at position \d+/)
    }
  })
}

describe('GET /search (memory store)', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const service = await serveForTest({ store, config: unlimitedConfig() })
  searchCases(() => service)

  it('answers a browser at /search with the web view, not JSON', async () => {
    const r = await request(service.url, '/search?q=192.0.2.1', { headers: { accept: 'text/html' } })
    expect(r.status).toBe(303)
  })

  it('refuses other methods (405) and an accept without JSON (406); an unknown key is 401', async () => {
    expect((await request(service.url, '/search?scope=leak', { method: 'POST' })).status).toBe(405)
    expect((await request(service.url, '/search?scope=leak', { headers: { accept: 'image/png' } })).status).toBe(406)
    expect((await request(service.url, '/search?scope=leak', { headers: { 'api-key': 'no-such-key-123' } })).status).toBe(401)
  })

  it('answers a search the store refuses as too costly 422 with the reason', async () => {
    const small = new MemoryStore({ scanLimit: 10 })
    small.ingest(EVENTS)
    const s = await serveForTest({ store: small, config: unlimitedConfig() })
    const r = await request(s.url, `/search?scope=service&q=${encodeURIComponent('+nosuchword')}`)
    expect(r.status).toBe(422)
    expect((r.json as { title: string; description: string }).title).toBe('Unprocessable Content')
    expect((r.json as { description: string }).description).toMatch(/too costly.*add a selective term/)
  })
})

describe('GET /search: page caps, page size, rate limit', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const config = unlimitedConfig({ search_page_size: 10, plans: { anonymous: { rate: null, search_pages: 2 }, registered: { rate: 1, burst: 2, search_pages: 0 }, pro: { rate: null, search_pages: null } } })
  const service = await serveForTest({ store, config })

  it('reads search_page_size and stops a plan at its search_pages with a 403 and the reason', async () => {
    expect(((await request(service.url, '/search?scope=service&page=1')).json as unknown[]).length).toBe(10)
    const beyond = await request(service.url, '/search?scope=service&page=2')
    expect(beyond.status).toBe(403)
    expect(beyond.json).toEqual({
      title: 'Forbidden',
      description: 'The anonymous plan may read search pages 0 to 1 (20 events); page 2 is beyond them. Narrow the query, or use a key of a plan with more pages.',
    })
    // null = no cap: past the last page is 200 [].
    const deep = await request(service.url, '/search?scope=service&page=999', { headers: { 'api-key': KEYS.pro } })
    expect(deep.status).toBe(200)
    expect(deep.json).toEqual([])
  })

  it('counts each search against the key’s rate limit, like a lookup (the third immediate request is 429)', async () => {
    const headers = { 'api-key': KEYS.registered2 }
    const statuses = [
      (await request(service.url, '/host/192.0.2.1', { headers })).status,
      (await request(service.url, '/search?scope=service', { headers })).status,
      (await request(service.url, '/search?scope=service', { headers })).status,
    ]
    // search_pages 0: the plan may not search, but the request still took a token.
    expect(statuses.slice(0, 2)).toEqual([200, 403])
    expect(statuses[2]).toBe(429)
  })
})

describePostgres('GET /search (PostgreSQL store)', () => {
  const schema = freshSchema()
  dropSchemasAfterAll([schema])
  let service: RunningService
  let store: Store
  beforeAll(async () => {
    const pg = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    await pg.ingest(EVENTS)
    store = pg
    service = await startService({ store, config: unlimitedConfig(), host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await service?.close(100)
    await (store as PostgresStore | undefined)?.close()
  })
  searchCases(() => service)
})
