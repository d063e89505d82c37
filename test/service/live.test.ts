/**
 * The live stream (/ws/service, /ws/leak) on the memory store, over real WebSockets on 127.0.0.1:
 * one message per new event of the scope, its stored bytes; LeakIX's Go client's Origin accepted;
 * every refusal a proper HTTP answer; a subscriber that stops reading is cut off with 1013 while
 * the others go on; the service's stop closes subscribers.
 */
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryStore, parseConfig } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, ManualClock, request, serveForTest, unlimitedConfig } from './support.js'

interface Refusal {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** Opens a subscription; resolves with the socket once open, or with the HTTP refusal. */
function connect(base: string, path: string, headers: Record<string, string>): Promise<WebSocket | Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    ws.once('error', reject)
  })
}

/** Collects text messages of a socket. */
function messages(ws: WebSocket): string[] {
  const got: string[] = []
  ws.on('message', (data, binary) => {
    if (!binary) got.push(data.toString())
  })
  return got
}

/** Waits until `done()`: bounded by the test's own timeout, not by a time of its own that a busy machine could overrun. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10))
}

const ingest = (base: string, docs: unknown[]) =>
  request(base, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })

describe('live stream', async () => {
  const store = new MemoryStore()
  const service = await serveForTest({ store, config: unlimitedConfig({ live_buffer_bytes: 65_536 }) })
  const host = new URL(service.url).host

  it('sends each new event of its scope once, as its stored bytes; Origin HOST:PORT is accepted', async () => {
    const leaks = (await connect(service.url, '/ws/leak', { 'api-key': KEYS.pro, origin: host })) as WebSocket
    const services = (await connect(service.url, '/ws/service?q=*', { 'api-key': KEYS.pro })) as WebSocket
    const [gotLeaks, gotServices] = [messages(leaks), messages(services)]
    const leak = makeEvent({ event_type: 'leak', ip: '192.0.2.30', summary: 'a leak', leak: { ...makeEvent({}).leak, severity: 'high' } })
    const svc = makeEvent({ ip: '192.0.2.31', summary: 'a service' })
    expect((await ingest(service.url, [leak, svc, leak])).json).toMatchObject({ accepted: 2, duplicates: 1 })
    // Then one more of each: once it has come, anything sent before it has (a stream keeps its order).
    const lastLeak = makeEvent({ event_type: 'leak', ip: '192.0.2.32', summary: 'last leak', leak: { ...makeEvent({}).leak, severity: 'high' } })
    await ingest(service.url, [lastLeak, makeEvent({ ip: '192.0.2.33', summary: 'last service' })])
    await until(() => gotLeaks.some((m) => m.includes('last leak')) && gotServices.some((m) => m.includes('last service')))
    const stored = await request(service.url, '/host/192.0.2.30')
    expect(gotLeaks.slice(0, -1)).toEqual([JSON.stringify((stored.json as { Leaks: unknown[] }).Leaks[0])])
    expect(gotServices.map((m) => JSON.parse(m).summary)).toEqual(['a service', 'last service'])
    leaks.close()
    services.close()
  })

  it('filters with ?q= (the query engine): only matching new events reach the subscriber', async () => {
    const filtered = (await connect(service.url, `/ws/leak?q=${encodeURIComponent('+plugin:GitConfigHttpPlugin -port:8080')}`, { 'api-key': KEYS.pro })) as WebSocket
    const got = messages(filtered)
    const leak = (port: string, plugin: string, summary: string) => makeEvent({ event_type: 'leak', ip: '192.0.2.50', port, event_source: plugin, summary })
    await ingest(service.url, [leak('80', 'GitConfigHttpPlugin', 'in'), leak('8080', 'GitConfigHttpPlugin', 'out: port'), leak('80', 'DotEnvConfigPlugin', 'out: plugin'), leak('443', 'GitConfigHttpPlugin', 'in too')])
    await ingest(service.url, [leak('81', 'GitConfigHttpPlugin', 'last')])
    // The last one matches: once it has come, every earlier match has (a stream keeps its order).
    await until(() => got.length > 0 && JSON.parse(got.at(-1)!).summary === 'last')
    expect(got.map((m) => JSON.parse(m).summary)).toEqual(['in', 'in too', 'last'])
    filtered.close()
    await until(() => service.context.live.size === 0)
  })

  it('refuses with whole HTTP answers: 401, 403 by plan, 400 for a query, 404 elsewhere; a plain GET is 426', async () => {
    const unknown = (await connect(service.url, '/ws/leak', { 'api-key': 'not-a-known-key' })) as Refusal
    expect([unknown.status, JSON.parse(unknown.body).title]).toEqual([401, 'Unauthorized'])
    const registered = (await connect(service.url, '/ws/leak', { 'api-key': KEYS.registered })) as Refusal
    expect(registered.status).toBe(403)
    expect(JSON.parse(registered.body).description).toMatch(/live stream is for pro keys; this caller's plan is registered/)
    const anonymous = (await connect(service.url, '/ws/service', {})) as Refusal
    expect(anonymous.status).toBe(403)
    const query = (await connect(service.url, '/ws/leak?q=%2Bplugin%3AGit%20%2Bcolour%3Ared', { 'api-key': KEYS.pro })) as Refusal
    expect(query.status).toBe(400)
    expect(query.headers['content-type']).toBe('application/json')
    expect(JSON.parse(query.body).description).toMatch(/^bad query at position 14 \(`colour`\): there is no field `colour`/)
    // A leak-only field on the stream of services.
    expect(((await connect(service.url, '/ws/service?q=age%3A%3E3', { 'api-key': KEYS.pro })) as Refusal).status).toBe(400)
    const elsewhere = (await connect(service.url, '/ws/other', { 'api-key': KEYS.pro })) as Refusal
    expect(elsewhere.status).toBe(404)
    const plain = await request(service.url, '/ws/leak', { headers: { 'api-key': KEYS.pro } })
    expect([plain.status, plain.headers.upgrade]).toEqual([426, 'websocket'])
    expect(service.context.live.size).toBe(0)
  })

  it('cuts off a subscriber that stops reading (1013) without holding up the others', async () => {
    const slow = (await connect(service.url, '/ws/leak', { 'api-key': KEYS.pro })) as WebSocket
    const fine = (await connect(service.url, '/ws/leak', { 'api-key': KEYS.pro })) as WebSocket
    const got = messages(fine)
    const closed = new Promise<number>((resolve) => slow.once('close', (code) => resolve(code)))
    slow.pause()
    const before = service.context.live.slowDisconnects
    const big = 'x'.repeat(8_000)
    let sent = 0
    for (let batch = 0; batch < 40 && service.context.live.slowDisconnects === before; batch++) {
      const docs = Array.from({ length: 200 }, (_, i) => makeEvent({ event_type: 'leak', ip: `10.9.${batch}.${i}`, summary: `${batch}/${i} ${big}` }))
      await ingest(service.url, docs)
      sent += docs.length
      await until(() => got.length >= sent)
    }
    expect(service.context.live.slowDisconnects).toBe(before + 1)
    slow.resume()
    expect(await closed).toBe(1013)
    expect(got.length).toBe(sent) // the reader kept up and got everything
    fine.close()
    await until(() => service.context.live.size === 0)
    expect(service.context.live.size).toBe(0)
  })
})

describe('live stream: limits', async () => {
  const config = parseConfig(
    JSON.stringify({ keys: [{ name: 'p', key: 'pro-key-limits-1', plan: 'pro' }], plans: { pro: { rate: 1, burst: 1 }, registered: { live: true } } }),
    'c.json',
  )
  // The limiter's time moves only when a test moves it: a slow first connection refills nothing.
  const clock = new ManualClock()
  const service = await serveForTest({ store: new MemoryStore(), config, limiter: { now: clock.now } })

  it('charges one request per connection: the second at once is 429 with x-limited-for', async () => {
    const first = (await connect(service.url, '/ws/leak', { 'api-key': 'pro-key-limits-1' })) as WebSocket
    const second = (await connect(service.url, '/ws/leak', { 'api-key': 'pro-key-limits-1' })) as Refusal
    expect(second.status).toBe(429)
    expect(second.headers['x-limited-for']).toMatch(/^\d+(\.\d+)?(ms|s)$/)
    first.close()
  })

  it('closes subscribers with 1001 when the service stops', async () => {
    clock.advance(1_000)
    const ws = (await connect(service.url, '/ws/service', { 'api-key': 'pro-key-limits-1' })) as WebSocket
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    await service.close(500)
    expect(await closed).toBe(1001)
  })
})
