/** Rate limiting over real HTTP: 429 `Rate-limited` with a Go-duration `x-limited-for` that is long enough. */
import { Agent, get as httpGet } from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { parseGoDuration } from '../../src/client/index.js'
import { defaultConfig, DEMO_SECRETS, MemoryStore, parseConfig } from '../../src/service/index.js'
import { type Answer, HeldClock, request, schemaErrors, serveForTest } from './support.js'

const config = parseConfig(
  JSON.stringify({
    keys: [
      { name: 'one', key: 'key-number-one', plan: 'registered' },
      { name: 'two', key: 'key-number-two', plan: 'registered' },
      { name: 'fast', key: 'key-number-fast', plan: 'pro' },
    ],
    // Registered: the default rate (1/s) without burst; pro: 5/s so the real-time test sleeps ~200 ms.
    plans: { registered: { burst: 1 }, pro: { rate: 5, burst: 1 } },
  }),
  'rate-test.json',
)

/** Checks a 429 and returns its wait in milliseconds. */
function limited(answer: Answer): number {
  expect(answer.status).toBe(429)
  expect(answer.statusMessage).toBe('Rate-limited')
  expect(answer.headers['content-type']).toBe('application/json')
  expect(schemaErrors('error', answer.json)).toEqual([])
  const header = answer.headers['x-limited-for'] as string
  expect(header).toMatch(/^(\d+h)?(\d+m)?(\d+(\.\d+)?(ms|s))$/)
  // Parsed by our own client, as a client author's code would.
  const parsed = parseGoDuration(header)
  expect(parsed.ok).toBe(true)
  const ns = parsed.ok ? Number(parsed.nanoseconds) : 0
  expect(ns).toBeGreaterThan(0)
  return ns / 1e6
}

// "Immediate" requests are made while the limiter's clock stands still (HeldClock): on a busy
// machine two requests can be further apart than a token takes to come back.
describe('rate limiting', async () => {
  const clock = new HeldClock()
  const service = await serveForTest({ store: new MemoryStore(), config, limiter: { now: clock.now } })
  const get = (key?: string) => request(service.url, '/host/192.0.2.1', { headers: key ? { 'api-key': key } : {} })

  it('answers the second immediate request with one key 429, and leaves other keys alone', async () => {
    await clock.still(async () => {
      expect((await get('key-number-one')).status).toBe(200)
      const wait = limited(await get('key-number-one'))
      expect(wait).toBeLessThanOrEqual(1000)
      expect((await get('key-number-two')).status).toBe(200)
      expect((await get('key-number-fast')).status).toBe(200)
      expect((await get()).status).toBe(200)
    })
  })

  it('lets the next request through after sleeping x-limited-for (real time)', async () => {
    for (let round = 0; round < 3; round++) {
      const wait = await clock.still(async () => {
        await get('key-number-fast')
        return limited(await get('key-number-fast'))
      })
      expect(wait).toBeLessThanOrEqual(200)
      await sleep(wait)
      expect((await get('key-number-fast')).status).toBe(200)
    }
  })

  it('limits anonymous callers per client address, apart from keys', async () => {
    const anonymous = await serveForTest({ store: new MemoryStore(), config: parseConfig('{"keys":[{"name":"k","key":"key-number-one","plan":"pro"}],"plans":{"anonymous":{"burst":1}}}', 'x.json'), limiter: { now: () => 0 } })
    const path = '/domain/example.com'
    expect((await request(anonymous.url, path)).status).toBe(200)
    limited(await request(anonymous.url, path))
    expect((await request(anonymous.url, path, { headers: { 'api-key': 'key-number-one' } })).status).toBe(200)
  })

  it('charges each request on one kept-alive connection to the caller it names: the key, or the address', async () => {
    // The anonymous caller is made once per connection (http/caller.ts): a key on the same
    // connection is still its own caller, and the address's budget is shared with other connections.
    const anonymous = await serveForTest({ store: new MemoryStore(), config: parseConfig('{"keys":[{"name":"k","key":"key-number-one","plan":"pro"}],"plans":{"anonymous":{"burst":1},"pro":{"burst":1}}}', 'x.json'), limiter: { now: () => 0 } })
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const onOne = (headers: Record<string, string> = {}) =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const req = httpGet(`${anonymous.url}/host/192.0.2.1`, { agent, headers }, (res) => {
          res.resume()
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }))
        })
        req.on('error', reject)
      })
    try {
      expect(await onOne()).toEqual({ status: 200, reused: false })
      expect(await onOne({ 'api-key': 'key-number-one' })).toEqual({ status: 200, reused: true })
      expect(await onOne()).toEqual({ status: 429, reused: true })
      expect(await onOne({ 'api-key': 'key-number-one' })).toEqual({ status: 429, reused: true })
      expect((await request(anonymous.url, '/host/192.0.2.1')).status).toBe(429)
    } finally {
      agent.destroy()
    }
  })

  it('has the documented default: 1 request/second with a burst of 2', async () => {
    const defaults = await serveForTest({ store: new MemoryStore(), config: defaultConfig(), limiter: { now: () => 0 } })
    const headers = { 'api-key': DEMO_SECRETS.pro }
    expect((await request(defaults.url, '/host/192.0.2.1', { headers })).status).toBe(200)
    expect((await request(defaults.url, '/host/192.0.2.1', { headers })).status).toBe(200)
    const wait = limited(await request(defaults.url, '/host/192.0.2.1', { headers }))
    expect(wait).toBe(1000)
  })
})
