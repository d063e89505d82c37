/**
 * GET /bulk/search and /bulk/service over HTTP: JSON Lines shapes and contents (the query engine
 * as the oracle), 204, the plan gate, query errors, the rate limit, and backpressure: a client
 * that stops reading does not make the server read on, and a dropped connection stops the query.
 */
import { request as httpRequest } from 'node:http'
import { describe, expect, it } from 'vitest'
import { matches, parseQuery } from '../../src/query/index.js'
import type { Aggregation, Event } from '../../src/schema/index.js'
import { resourceOf } from '../../src/service/aggregate/index.js'
import { type BatchedIterable, MemoryStore, parseConfig, type SeenEvent, type Store } from '../../src/service/index.js'
import type { Query } from '../../src/query/index.js'
import type { SearchAllOptions } from '../../src/service/store/search.js'
import { validateDocument } from '../../src/validate/index.js'
import { KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

const pro = { 'api-key': KEYS.pro, accept: 'application/json' }
const lines = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)

describe('GET /bulk/search and /bulk/service', async () => {
  const store = new MemoryStore()
  const leak = (fields: Partial<Event>) => makeEvent({ event_type: 'leak', leak: { ...makeEvent({}).leak, severity: 'high' }, ...fields })
  store.ingest([
    leak({ ip: '192.0.2.1', host: 'a.example.com', port: '9200', event_source: 'ElasticSearchOpenPlugin', time: '2026-01-02T00:00:00Z' }),
    leak({ ip: '192.0.2.1', host: 'b.example.com', port: '9200', event_source: 'ElasticSearchOpenPlugin', time: '2026-01-03T00:00:00Z' }),
    leak({ ip: '192.0.2.1', port: '6379', event_source: 'RedisOpenPlugin', time: '2026-01-01T00:00:00Z' }),
    leak({ ip: '::ffff:192.0.2.2', port: '443', event_source: 'DotEnvConfigPlugin', time: '2026-01-04T00:00:00Z' }),
    leak({ host: 'only-name.example.org', port: '80', event_source: 'DotEnvConfigPlugin', time: '2026-01-05T00:00:00Z' }),
    makeEvent({ ip: '192.0.2.1', port: '22', time: '2026-01-06T00:00:00Z' }),
    makeEvent({ ip: '192.0.2.9', port: '80', time: '2026-01-07T00:00:00Z' }),
  ])
  const service = await serveForTest({ store, config: unlimitedConfig() })

  it('answers leaks as one aggregation per resource, each line valid, counts agreeing with its events', async () => {
    for (const q of ['*', 'plugin:ElasticSearchOpenPlugin', '+port:9200 -host:b.example.com', 'ip:192.0.2.0/24']) {
      const r = await request(service.url, `/bulk/search?q=${encodeURIComponent(q)}`, { headers: pro })
      expect(r.status, q).toBe(200)
      expect(r.headers['content-type']).toBe('application/x-ndjson')
      const query = parseQuery(q, { scope: 'leak' })
      const got = lines(r.text) as Aggregation[]
      const expected = new Set<string>()
      // The stored events, each with its address spelled as its aggregation's `ip` (`::ffff:192.0.2.2` is 192.0.2.2).
      for (const page of await store.search(query, { offset: 0, limit: 100 })) {
        const e = JSON.parse(Buffer.from(page).toString()) as Event
        const r = resourceOf(e)
        expected.add(JSON.stringify(e.ip !== '' && r.ip !== '' && e.ip !== r.ip ? { ...e, ip: r.ip } : e))
      }
      const events = got.flatMap((a) => a.events.map((e) => JSON.stringify(e)))
      expect(new Set(events), q).toEqual(expected)
      expect(events.length).toBe(expected.size)
      for (const a of got) {
        expect(validateDocument('aggregation', a).errors, q).toEqual([])
        expect(new Set(a.events.map((e) => resourceOf(e).id))).toEqual(new Set([a.resource_id]))
        for (const e of a.events) if (e.ip !== '') expect(e.ip, 'one spelling of the address').toBe(a.ip)
        for (const e of a.events) expect(matches(query, e)).toBe(true)
        expect(a.leak_event_count).toBe(a.events.length)
        expect(a.plugins).toEqual([...new Set(a.events.map((e) => e.event_source))].sort())
      }
      expect(new Set(got.map((a) => a.resource_id)).size).toBe(got.length)
    }
    const all = lines((await request(service.url, '/bulk/search?q=*', { headers: pro })).text) as Aggregation[]
    const one = all.find((a) => a.resource_id === '192.0.2.1')!
    expect([one.leak_count, one.leak_event_count, one.open_ports, one.plugins]).toEqual([3, 3, ['6379', '9200'], ['ElasticSearchOpenPlugin', 'RedisOpenPlugin']])
    expect(one.events.map((e) => e.time)).toEqual(['2026-01-03T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'])
    expect(all.map((a) => a.resource_id).sort()).toEqual(['192.0.2.1', '192.0.2.2', 'only-name.example.org'])
  })

  it('answers service events matching the query, one per line, as stored', async () => {
    const r = await request(service.url, '/bulk/service?q=ip%3A192.0.2.1', { headers: pro })
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toBe('application/x-ndjson')
    const got = lines(r.text) as Event[]
    expect(got.map((e) => e.port)).toEqual(['22'])
    for (const e of got) expect(validateDocument('event', e).errors).toEqual([])
    const all = lines((await request(service.url, '/bulk/service', { headers: pro })).text) as Event[]
    expect(all.map((e) => e.ip)).toEqual(['192.0.2.9', '192.0.2.1'])
  })

  it('answers 204 with no body when nothing matches', async () => {
    const r = await request(service.url, '/bulk/search?q=plugin:NoSuchPlugin', { headers: pro })
    expect([r.status, r.text]).toEqual([204, ''])
    expect((await request(service.url, '/bulk/service?q=port:1', { headers: pro })).status).toBe(204)
  })

  it('is for pro keys only by default: 403 with the reason for the others', async () => {
    for (const headers of [{ 'api-key': KEYS.registered }, { 'api-key': '' }, {}] as Record<string, string>[]) {
      const r = await request(service.url, '/bulk/search?q=*', { headers })
      expect(r.status).toBe(403)
      expect((r.json as { description: string }).description).toMatch(/bulk export is for pro keys; this caller's plan is (registered|anonymous)/)
    }
    expect((await request(service.url, '/bulk/service', { headers: { 'api-key': 'unknown-key-1' } })).status).toBe(401)
  })

  it('answers a bad query 400 naming its position and term, and odd requests as other routes do', async () => {
    const r = await request(service.url, `/bulk/search?q=${encodeURIComponent('+port:80 +colour:red')}`, { headers: pro })
    expect(r.status).toBe(400)
    expect((r.json as { description: string }).description).toMatch(/^bad query at position 11 \(`colour`\): there is no field `colour`/)
    // A leak-only field in a search of services.
    expect((await request(service.url, '/bulk/service?q=age:>3', { headers: pro })).status).toBe(400)
    expect((await request(service.url, '/bulk/search', { headers: { ...pro, accept: 'image/png' } })).status).toBe(406)
    expect((await request(service.url, '/bulk/search', { method: 'POST', headers: pro })).status).toBe(405)
    expect((await request(service.url, '/bulk/other', { headers: pro })).status).toBe(404)
  })
})

describe('GET /bulk/search: plans and rate limit are configurable', async () => {
  const config = parseConfig(
    JSON.stringify({ keys: [{ name: 'r', key: 'registered-key-7', plan: 'registered' }], plans: { registered: { rate: 1, burst: 2, bulk: true } } }),
    'c.json',
  )
  // The limiter's clock stands still: "immediate" on a busy machine too.
  const service = await serveForTest({ config, limiter: { now: () => 0 } })

  it('lets a plan with `bulk` in, one token per export: the third immediate one is 429', async () => {
    const headers = { 'api-key': 'registered-key-7' }
    expect((await request(service.url, '/bulk/search?q=*', { headers })).status).toBe(204)
    expect((await request(service.url, '/bulk/service?q=*', { headers })).status).toBe(204)
    const third = await request(service.url, '/bulk/search?q=*', { headers })
    expect(third.status).toBe(429)
    expect(third.headers['x-limited-for']).toMatch(/^\d+(\.\d+)?m?s$/)
  })
})

/** A memory store that counts what its bulk reads yield and notes when a read is closed. */
class CountingStore extends MemoryStore {
  yielded = 0
  closed = 0
  override searchAll(query: Query, options?: SearchAllOptions): AsyncIterable<Buffer> {
    return this.counted(super.searchAll(query, options))
  }
  // Read by the export a batch at a time (BatchedIterable): counted per event either way.
  override searchByResource(query: Query, options?: SearchAllOptions): BatchedIterable<SeenEvent> {
    const source = super.searchByResource(query, options)
    return { batches: () => this.counted(source.batches(), (b) => b.length), [Symbol.asyncIterator]: () => this.counted(source, () => 1)[Symbol.asyncIterator]() }
  }
  private async *counted<T>(source: AsyncIterable<T>, events: (item: T) => number = () => 1): AsyncGenerator<T> {
    try {
      for await (const item of source) {
        this.yielded += events(item)
        yield item
      }
    } finally {
      this.closed++
    }
  }
}

/** Resolves once `value()` has not changed for `quietMs`. */
async function settled(value: () => number, quietMs = 300): Promise<number> {
  let last = -1
  for (;;) {
    const now = value()
    if (now === last) return now
    last = now
    await new Promise((r) => setTimeout(r, quietMs))
  }
}

describe('bulk export backpressure', async () => {
  const store: Store & CountingStore = new CountingStore()
  const big = 'x'.repeat(2000)
  const total = 12_000 // about 25 MB of lines: far more than the sockets' buffers hold
  store.ingest(Array.from({ length: total }, (_, i) => makeEvent({ event_type: i % 2 ? 'leak' : 'service', ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, summary: `${i} ${big}` })))
  const service = await serveForTest({ store, config: unlimitedConfig() })

  for (const path of ['/bulk/service', '/bulk/search']) {
    it(`${path}: a client that stops reading stops the reads; a dropped connection closes the query`, async () => {
      store.yielded = 0
      const closedBefore = store.closed
      const url = new URL(service.url)
      const req = httpRequest({ host: url.hostname, port: url.port, path, headers: pro, agent: false })
      const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
        req.on('response', resolve)
        req.on('error', reject)
        req.end()
      })
      expect(response.statusCode).toBe(200)
      response.pause()
      const read = await settled(() => store.yielded)
      expect(read).toBeGreaterThan(0)
      expect(read).toBeLessThan(total / 2 - 1000)
      req.destroy()
      while (store.closed === closedBefore) await new Promise((r) => setTimeout(r, 20))
      expect(store.closed).toBe(closedBefore + 1)
      // "Settled" is a quiet time: on a busy machine the reads may have gone on a little after it,
      // but never far (the paused client's buffers bound them).
      expect(store.yielded).toBeGreaterThanOrEqual(read)
      expect(store.yielded).toBeLessThan(total / 2 - 1000)
    })
  }
})

/** A memory store whose service export yields its first match, then waits until released. */
class HesitantStore extends MemoryStore {
  release: () => void = () => undefined
  override searchAll(query: Query, options?: SearchAllOptions): AsyncIterable<Buffer> {
    const all = super.searchAll(query, options)
    const released = new Promise<void>((resolve) => (this.release = resolve))
    return (async function* () {
      let first = true
      for await (const item of all) {
        yield item
        if (first) await released
        first = false
      }
    })()
  }
}

describe('bulk export of a slow query', async () => {
  const store = new HesitantStore()
  store.ingest([makeEvent({ ip: '192.0.2.90', summary: 'first' }), makeEvent({ ip: '192.0.2.91', summary: 'second' })])
  const service = await serveForTest({ store, config: unlimitedConfig() })

  it('sends the lines found so far while the store looks for more (not only full chunks)', async () => {
    const url = new URL(service.url)
    const req = httpRequest({ host: url.hostname, port: url.port, path: '/bulk/service', headers: pro, agent: false })
    const response = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      req.on('response', resolve)
      req.on('error', reject)
      req.end()
    })
    let text = ''
    const ended = new Promise((resolve) => response.on('end', resolve))
    const firstLine = new Promise<void>((resolve) =>
      response.on('data', (c: Buffer) => {
        text += c.toString()
        if (text.includes('\n')) resolve()
      }),
    )
    await firstLine // the store has not been released: this line came before the answer's end
    expect(lines(text).map((e) => (e as Event).summary)).toEqual(['second'])
    store.release()
    await ended
    expect(lines(text).map((e) => (e as Event).summary)).toEqual(['second', 'first'])
  })
})
