/** GET /api/plugins and /api/plugins/:name over HTTP: shapes, descriptions, the 404 body, keys and the rate limit. */
import { describe, expect, it } from 'vitest'
import { MemoryStore, nowInstant, parseConfig } from '../../src/service/index.js'
import { NS_PER_MINUTE } from '../../src/service/store/plugin-windows.js'
import { formatTime } from '../../src/time/index.js'
import { validateDocument } from '../../src/validate/index.js'
import { KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

describe('GET /api/plugins', async () => {
  const store = new MemoryStore()
  const recent = formatTime(nowInstant() - 3n * NS_PER_MINUTE)
  store.ingest([
    makeEvent({ event_source: 'DotEnvConfigPlugin', ip: '192.0.2.1', time: recent }),
    makeEvent({ event_source: 'DotEnvConfigPlugin', ip: '192.0.2.2', time: '2020-01-01T00:00:00Z' }),
    makeEvent({ event_source: 'odd/name %', ip: '192.0.2.3', time: recent }),
  ])
  const service = await serveForTest({ store, config: unlimitedConfig({ plugins: { DotEnvConfigPlugin: 'Environment files (.env) served over HTTP.' } }) })

  it('lists every plugin with its description and counts, in the schema’s shape', async () => {
    const r = await request(service.url, '/api/plugins', { headers: { accept: 'application/json', 'api-key': '' } })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('application/json')
    expect(validateDocument('plugins', r.json).errors).toEqual([])
    expect(r.json).toEqual([
      { name: 'DotEnvConfigPlugin', description: 'Environment files (.env) served over HTTP.', event_count1h: 1, event_count24h: 1, event_count7d: 1 },
      { name: 'odd/name %', description: 'Events reported by the odd/name % plugin.', event_count1h: 1, event_count24h: 1, event_count7d: 1 },
    ])
    expect(Object.keys((r.json as object[])[0]!)).toEqual(['name', 'description', 'event_count1h', 'event_count24h', 'event_count7d'])
  })

  it('answers one plugin as {name, description}, a percent-encoded name too', async () => {
    const r = await request(service.url, '/api/plugins/DotEnvConfigPlugin', { headers: { 'api-key': KEYS.registered } })
    expect(r.status).toBe(200)
    expect(r.text).toBe('{"name":"DotEnvConfigPlugin","description":"Environment files (.env) served over HTTP."}')
    expect(validateDocument('plugin', r.json).errors).toEqual([])
    const odd = await request(service.url, `/api/plugins/${encodeURIComponent('odd/name %')}`)
    expect(odd.json).toEqual({ name: 'odd/name %', description: 'Events reported by the odd/name % plugin.' })
  })

  it('answers an unknown plugin 404 with the JSON string "Plugin not found", as LeakIX does', async () => {
    const r = await request(service.url, '/api/plugins/NoSuchPlugin')
    expect(r.status).toBe(404)
    expect(r.headers['content-type']).toBe('application/json')
    expect(r.text).toBe('"Plugin not found"')
  })

  it('refuses an unknown key (401), a bad encoding (400), other methods (405)', async () => {
    expect((await request(service.url, '/api/plugins', { headers: { 'api-key': 'not-a-known-key' } })).status).toBe(401)
    expect((await request(service.url, '/api/plugins/%E0%A4%A')).status).toBe(400)
    expect((await request(service.url, '/api/plugins', { method: 'POST' })).status).toBe(405)
    expect((await request(service.url, '/api/plugins/a/b')).status).toBe(404)
  })
})

describe('GET /api/plugins: rate limited like the lookups', async () => {
  const config = parseConfig(JSON.stringify({ keys: [{ name: 'r', key: 'registered-key-9', plan: 'registered' }], plans: { registered: { rate: 1, burst: 2 } } }), 'c.json')
  // The limiter's clock stands still: "immediate" on a busy machine too.
  const service = await serveForTest({ config, limiter: { now: () => 0 } })

  it('charges the key’s bucket, shared with lookups: the third immediate request is 429 with x-limited-for', async () => {
    const headers = { 'api-key': 'registered-key-9' }
    expect((await request(service.url, '/host/192.0.2.1', { headers })).status).toBe(200)
    expect((await request(service.url, '/api/plugins', { headers })).status).toBe(200)
    const third = await request(service.url, '/api/plugins/x', { headers })
    expect(third.status).toBe(429)
    expect(third.statusMessage).toBe('Rate-limited')
    expect(third.headers['x-limited-for']).toBe('1s') // the clock stands still: a whole token's wait
  })
})
