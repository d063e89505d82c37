/**
 * GET /search/count over HTTP on both stores: the total and facets (valid against the published
 * schema), the same matches as GET /search pages, 400s for scope, query and facets, 401, 404 for
 * other methods, 406, 403 for a plan that may not search, one token of the rate limit per
 * request (a clock that stands still: no refill), and 422 when the store refuses the cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Event } from '../../src/schema/index.js'
import { MemoryStore, type RunningService, startService, type Store } from '../../src/service/index.js'
import { PostgresStore } from '../../src/service/store/postgres/index.js'
import { validateDocument } from '../../src/validate/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './postgres/database.js'
import { KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

/** 30 services on 192.0.2.0/24, ports 443 and 22, countries DE and FR; 4 leaks. */
const EVENTS: Event[] = [
  ...Array.from({ length: 30 }, (_, i) =>
    makeEvent({ event_source: i % 3 === 0 ? 'HttpPlugin' : 'SshPlugin', ip: `192.0.2.${i + 1}`, port: i % 2 === 0 ? '443' : '22', time: `2026-11-24T10:00:${String(i).padStart(2, '0')}Z`, geoip: { ...makeEvent({}).geoip, country_iso_code: i % 4 === 0 ? 'DE' : 'FR' } }),
  ),
  ...['critical', 'high', 'high', ''].map((severity, i) => makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: `198.51.100.${i + 1}`, time: `2026-11-2${i}T00:00:00Z`, leak: { ...makeEvent({}).leak, severity, stage: 'open' } })),
]

const json = { accept: 'application/json' }

function countCases(service: () => RunningService) {
  const get = (path: string, headers: Record<string, string> = json) => request(service().url, path, { headers })

  it('answers the total, and the facets asked for in their order, most first; valid against search-count.schema.json', async () => {
    const all = await get('/search/count?scope=service&q=*')
    expect(all.status).toBe(200)
    expect(all.headers['content-type']).toBe('application/json')
    expect(all.json).toEqual({ total: 30 })
    const r = await get(`/search/count?scope=service&q=${encodeURIComponent('+port:443')}&facet=country,plugin:1&facet=port`)
    expect(r.json).toEqual({
      total: 15,
      facets: {
        country: [
          { value: 'FR', count: 7 },
          { value: 'DE', count: 8 },
        ].sort((a, b) => b.count - a.count),
        plugin: [{ value: 'SshPlugin', count: 10 }],
        port: [{ value: '443', count: 15 }],
      },
    })
    expect(Object.keys((r.json as { facets: object }).facets)).toEqual(['country', 'plugin', 'port'])
    expect(validateDocument('search-count', r.json).errors).toEqual([])
    const leaks = await get('/search/count?scope=leak&facet=severity')
    expect(leaks.json).toEqual({ total: 4, facets: { severity: [{ value: 'high', count: 2 }, { value: 'critical', count: 1 }] } })
  })

  it('counts what the pages of GET /search hold', async () => {
    const q = encodeURIComponent('-country:DE +plugin:SshPlugin')
    let paged = 0
    for (let page = 0; ; page++) {
      const got = (await get(`/search?scope=service&q=${q}&page=${page}`)).json as unknown[]
      if (got.length === 0) break
      paged += got.length
    }
    expect(paged).toBeGreaterThan(0)
    expect((await get(`/search/count?scope=service&q=${q}`)).json).toEqual({ total: paged })
  })

  it('answers 400 for the scope, the query (position and term) and the facets, with the error body', async () => {
    for (const [path, text] of [
      ['/search/count?q=*', 'The scope parameter is missing: give scope=service or scope=leak.'],
      ['/search/count?scope=leak&q=%2Bcountri%3AFR', 'bad query at position 2 (`countri`): there is no field `countri`; did you mean `country`?'],
      ['/search/count?scope=leak&facet=prot', 'The facet parameter: there is no facet `prot`; the facets are port, plugin, severity, country, asn, ip, host, protocol, transport, tags, software, http.status, ssl.version, org, city, leak.type, leak.stage.'],
      ['/search/count?scope=service&facet=severity', 'The facet parameter: the facet `severity` is a field of leaks: count with scope leak.'],
      ['/search/count?scope=leak&facet=port:0', 'The facet parameter: `port:0`: the number of values must be an integer from 1 to 100.'],
      ['/search/count?scope=leak&facet=port,port', 'The facet parameter: the facet `port` is asked for twice.'],
    ] as const) {
      const r = await get(path)
      expect(r.status, path).toBe(400)
      expect(r.json, path).toEqual({ title: 'Bad Request', description: text })
    }
  })

  it('refuses other methods (405 with allow), an accept without JSON (406) and an unknown key (401)', async () => {
    const post = await request(service().url, '/search/count?scope=leak', { method: 'POST' })
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD'])
    expect((await get('/search/count?scope=leak', { accept: 'image/png' })).status).toBe(406)
    expect((await get('/search/count?scope=leak', { 'api-key': 'no-such-key-123' })).status).toBe(401)
  })
}

describe('GET /search/count (memory store)', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const service = await serveForTest({ store, config: unlimitedConfig() })
  countCases(() => service)

  it('answers a count the store refuses as too costly 422 with the reason', async () => {
    const small = new MemoryStore({ scanLimit: 10 })
    small.ingest(EVENTS)
    const s = await serveForTest({ store: small, config: unlimitedConfig() })
    for (const path of [`/search/count?scope=service&q=${encodeURIComponent('+nosuchword')}`, '/search/count?scope=service&facet=tags']) {
      const r = await request(s.url, path)
      expect(r.status, path).toBe(422)
      expect((r.json as { description: string }).description, path).toMatch(/^The count is too costly to answer in one request: the count read 10 events: add a selective term/)
    }
    // Facets the store keeps in columns cost no reading: answered.
    expect((await request(s.url, '/search/count?scope=service&facet=port,ip,host,country')).status).toBe(200)
  })
})

describe('GET /search/count: plans and the rate limit', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const config = unlimitedConfig({ plans: { anonymous: { rate: 1, burst: 2 }, registered: { rate: null, search_pages: 0 } } })
  // The limiter's clock stands still: no token comes back while the test runs.
  const service = await serveForTest({ store, config, limiter: { now: () => 0 } })

  it('refuses a plan that may not search (403), and takes one token per request like /search (the third is 429)', async () => {
    const refused = await request(service.url, '/search/count?scope=leak', { headers: { 'api-key': KEYS.registered } })
    expect(refused.status).toBe(403)
    expect((refused.json as { description: string }).description).toBe('The registered plan may not search, nor count. Use a key of a plan that may.')
    const statuses = [(await request(service.url, '/search/count?scope=leak')).status, (await request(service.url, '/search?scope=leak')).status]
    const third = await request(service.url, '/search/count?scope=leak&facet=port')
    expect(statuses).toEqual([200, 200])
    expect(third.status).toBe(429)
    expect(third.headers['x-limited-for']).toMatch(/^\d+ms$|^\d+(\.\d+)?s$/)
  })
})

describePostgres('GET /search/count (PostgreSQL store)', () => {
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
  countCases(() => service)
})
