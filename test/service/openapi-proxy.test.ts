/**
 * Every operation of schema/openapi.json against a running reference service: each documented
 * status is provoked over real HTTP on 127.0.0.1, and each actual answer (status, headers, body,
 * reason phrase) is judged against its operation the way a validating proxy would. At the end,
 * every documented status must have been seen, but for the few listed with the reason they
 * cannot be provoked from outside.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryStore, packageRoot, parseConfig, type RunningService, startService } from '../../src/service/index.js'
import { OpenApiJudge } from '../support/openapi-check.js'
import { type Answer, jsonl, makeEvent, request } from './support.js'

const judge = new OpenApiJudge(join(packageRoot(), 'schema', 'openapi.json'))
const KEYS = { registered: 'proxy-registered-1', pro: 'proxy-pro-key-01' }
const ADMIN = 'proxy-admin-token-0001'
const keys = [
  { name: 'reg', key: KEYS.registered, plan: 'registered' },
  { name: 'pro', key: KEYS.pro, plan: 'pro' },
]
const fastDelivery = { timeout_ms: 500, attempts: 1, backoff_ms: 1, backoff_max_ms: 1, queue_limit: 100 }
/** A query above the pro plan's cost per event (5 000 by default): a pattern read in every header. */
const TOO_COSTLY = encodeURIComponent('http.header:~"([^a]{0,50}[^b]{0,50}){10}z"')

/** Documented statuses no request can provoke on a healthy service, and why. */
const UNPROVOKED = new Map<string, string>([
  ['GET /ws/service 503', 'the memory store’s feed is always ready (PostgreSQL answers it when LISTEN fails)'],
  ['GET /ws/leak 503', 'the memory store’s feed is always ready (PostgreSQL answers it when LISTEN fails)'],
])

let open: RunningService // no rate limits, ingest enabled, small body limit
let limited: RunningService // one request per key or address, ingest disabled
let receiver: Server
let receiverUrl = ''
/** Deliveries the receiver got: judged against the document's `alert` webhook. */
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = []

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  // Caps small enough to reach: one watched resource per registered key, two hooks per pro key.
  const unlimited = { anonymous: { rate: null }, registered: { rate: null, resources: 1 }, pro: { rate: null, hooks: 2 } }
  open = await startService({
    store: new MemoryStore(),
    config: parseConfig(JSON.stringify({ keys, admin_token: ADMIN, plans: unlimited, max_body_bytes: 8192, allow_private_hooks: true, hook_delivery: fastDelivery }), 'open.json'),
    port: 0,
  })
  const once = { rate: 0.001, burst: 1 }
  limited = await startService({
    store: new MemoryStore(),
    config: parseConfig(JSON.stringify({ keys, plans: { anonymous: once, registered: once, pro: once }, allow_private_hooks: true }), 'limited.json'),
    port: 0,
    // A clock that stands still: no bucket refills (the pages' budget refills 2 a second in real
    // time, faster than a busy machine spends it).
    limiter: { now: () => 0 },
  })
})

afterAll(async () => {
  await Promise.all([open?.close(100), limited?.close(100), new Promise((resolve) => receiver?.close(resolve))])
})

type Call = { method?: string; headers?: Record<string, string>; body?: string }

/** Sends a request and judges the answer against `METHOD template`; returns the answer. */
async function call(service: RunningService, template: string, path: string, options: Call = {}, expected?: number): Promise<Answer> {
  const answer = await request(service.url, path, options)
  expect(judge.judge(options.method ?? 'GET', template, answer)).toEqual([])
  if (expected !== undefined) expect(answer.status, `${options.method ?? 'GET'} ${path}: ${answer.text.slice(0, 200)}`).toBe(expected)
  return answer
}

const pro = { 'api-key': KEYS.pro }
const registered = { 'api-key': KEYS.registered }
const unknown = { 'api-key': 'no-such-key' }
const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' }
const post = (headers: Record<string, string>, body: unknown): Call => ({ method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
const big = 'x'.repeat(70 * 1024)

/** Polls `check` every 20 ms, at most 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error('condition not met within 5 s')
}

describe('lookups', () => {
  it('ingest, then every lookup status', async () => {
    const events = [makeEvent({ ip: '192.0.2.44', host: 'www.proxy.example', port: '443' }), makeEvent({ event_type: 'leak', ip: '192.0.2.44', host: 'db.proxy.example', port: '9200', leak: { stage: 'open', type: 'x', severity: 'high', dataset: { rows: 1, files: 0, size: 0, collections: 0, infected: false, ransom_notes: null } } })]
    const ingest = { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: jsonl(events) + '{"ip": 5}\n' }
    await call(open, '/admin/events', '/admin/events', ingest, 200)
    await call(open, '/admin/events', '/admin/events', { ...ingest, headers: {} }, 401)
    await call(limited, '/admin/events', '/admin/events', ingest, 403)
    await call(open, '/admin/events', '/admin/events', { ...ingest, body: big }, 413)
    const remove = { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN}` } }
    expect((await call(open, '/admin/events', '/admin/events?tag=l9kit-conform%3Anone', remove, 200)).json).toEqual({ deleted: 0 })
    await call(open, '/admin/events', '/admin/events', remove, 400)
    await call(open, '/admin/events', '/admin/events?tag=x', { method: 'DELETE' }, 401)
    await call(limited, '/admin/events', '/admin/events?tag=x', remove, 403)

    for (const [template, good, bad] of [
      ['/host/{ip}', '/host/192.0.2.44', '/host/300.1.1.1'],
      ['/domain/{domain}', '/domain/proxy.example', '/domain/exa%20mple.com'],
      ['/api/subdomains/{domain}', '/api/subdomains/proxy.example', '/api/subdomains/exa%20mple.com'],
    ] as const) {
      await call(open, template, good, {}, 200)
      await call(open, template, good, { headers: pro }, 200)
      await call(open, template, bad, {}, 400)
      await call(open, template, good, { headers: unknown }, 401)
      // An empty api-key header is no key: the anonymous plan, as documented.
      await call(open, template, good, { headers: { 'api-key': '' } }, 200)
      await call(open, template, good, { headers: { accept: 'image/png' } }, 406)
      if (template !== '/api/subdomains/{domain}') {
        expect((await call(open, template, good, { headers: browser }, 200)).headers['content-type']).toMatch(/^text\/html/)
        await call(open, template, bad, { headers: browser }, 400)
      }
    }
    // Unknown hosts are 200 with nulls, not errors.
    expect((await call(open, '/host/{ip}', '/host/198.51.100.7', {}, 200)).json).toEqual({ Services: null, Leaks: null })
  })

  it('429 with x-limited-for, retry-after and the reason phrase, in JSON and as a page', async () => {
    for (const [template, path] of [['/host/{ip}', '/host/192.0.2.1'], ['/domain/{domain}', '/domain/example.com'], ['/api/subdomains/{domain}', '/api/subdomains/example.com']] as const) {
      await request(limited.url, path, { headers: registered })
      const answer = await call(limited, template, path, { headers: registered }, 429)
      expect(answer.statusMessage).toBe('Rate-limited')
    }
    // Pages have their own budget (30 at once, then 2 a second), apart from the API's, spent by now.
    await request(limited.url, '/host/192.0.2.1')
    expect((await request(limited.url, '/host/192.0.2.1', { headers: browser })).status).toBe(200)
    await spendPageBudget()
    await call(limited, '/host/{ip}', '/host/192.0.2.1', { headers: browser }, 429)
    await call(limited, '/domain/{domain}', '/domain/example.com', { headers: browser }, 429)
  })
})

/** Asks pages of `limited` until one is refused (the pages' budget holds 30; at most 40 asked). */
async function spendPageBudget(): Promise<void> {
  for (let i = 0; i < 40; i++) if ((await request(limited.url, '/host/192.0.2.9', { headers: browser })).status === 429) return
  expect.fail('the pages budget was never spent')
}

describe('web view', () => {
  it('the start page for a browser, 404 for anything else, 429 when limited', async () => {
    await call(open, '/', '/', { headers: browser }, 200)
    await call(open, '/', '/', {}, 404)
    await spendPageBudget()
    await call(limited, '/', '/', { headers: browser }, 429)
    await call(limited, '/search', '/search?q=port%3A443', { headers: browser }, 429)
    expect((await call(open, '/search', '/search?q=192.0.2.44', { headers: browser }, 303)).headers.location).toBe('/host/192.0.2.44')
    expect((await call(open, '/search', '/search?q=192.0.2.44%3A8080', { headers: browser }, 303)).headers.location).toBe('/host/192.0.2.44?port=8080')
    expect((await call(open, '/search', '/search?q=Proxy.Example', { headers: browser }, 303)).headers.location).toBe('/domain/proxy.example')
    await call(open, '/search', '/search?q=', { headers: browser }, 400)
    await call(open, '/search', '/search?q=not%20a%20name&scope=service&page=1', { headers: browser }, 200)
    await call(open, '/search', '/search?q=countri%3ADE', { headers: browser }, 400)
    // Not a browser: the search route's JSON (its own tests below).
    await call(open, '/search', '/search?q=192.0.2.44', {}, 400)
  })
})

describe('watched resources', () => {
  it('create, list, delete, and their errors', async () => {
    const created = await call(open, '/api/resources', '/api/resources', post(registered, { type: 'domain', value: 'Proxy.Example' }), 201)
    const id = (created.json as { id: string }).id
    await call(open, '/api/resources', '/api/resources', post(registered, { type: 'planet', value: 'x' }), 400)
    await call(open, '/api/resources', '/api/resources', { method: 'POST', headers: registered, body: '{not json' }, 400)
    await call(open, '/api/resources', '/api/resources', post({}, { type: 'ip', value: '192.0.2.1' }), 401)
    await call(open, '/api/resources', '/api/resources', { method: 'POST', headers: registered, body: big }, 413)
    await call(open, '/api/resources', '/api/resources', post(registered, { type: 'ip', value: '192.0.2.1' }), 409)
    await call(open, '/api/resources', '/api/resources', { headers: registered }, 200)
    await call(open, '/api/resources', '/api/resources?limit=0', { headers: registered }, 400)
    await call(open, '/api/resources', '/api/resources', { headers: unknown }, 401)
    await call(open, '/api/resources/{id}', `/api/resources/${id}`, { method: 'DELETE', headers: registered }, 204)
    await call(open, '/api/resources/{id}', `/api/resources/${id}`, { method: 'DELETE', headers: registered }, 404)
    await call(open, '/api/resources/{id}', `/api/resources/${id}`, { method: 'DELETE' }, 401)
  })

  it('429 on each route once the key is spent', async () => {
    await request(limited.url, '/api/resources', { headers: registered })
    await call(limited, '/api/resources', '/api/resources', post(registered, { type: 'ip', value: '192.0.2.1' }), 429)
    await call(limited, '/api/resources', '/api/resources', { headers: registered }, 429)
    await call(limited, '/api/resources/{id}', '/api/resources/res_x', { method: 'DELETE', headers: registered }, 429)
  })
})

describe('hooks and deliveries', () => {
  it('every route with a pro key, and the refusals', async () => {
    const created = await call(open, '/api/hooks', '/api/hooks', post(pro, { url: receiverUrl, min_severity: 'low', event_types: ['leak', 'service'] }), 201)
    const id = (created.json as { id: string }).id
    const failing = (await call(open, '/api/hooks', '/api/hooks', post(pro, { url: 'http://127.0.0.1:9/refused' }), 201).then((a) => a.json)) as { id: string }
    await call(open, '/api/hooks', '/api/hooks', post(pro, { url: 'ftp://example.com/' }), 400)
    await call(open, '/api/hooks', '/api/hooks', post(pro, { min_severity: 'medium' }), 400)
    await call(open, '/api/hooks', '/api/hooks', post({}, { url: receiverUrl }), 401)
    await call(open, '/api/hooks', '/api/hooks', post(registered, { url: receiverUrl }), 403)
    await call(open, '/api/hooks', '/api/hooks', { method: 'POST', headers: pro, body: big }, 413)
    await call(open, '/api/hooks', '/api/hooks', post(pro, { url: receiverUrl }), 409)
    await call(open, '/api/hooks', '/api/hooks', { headers: pro }, 200)
    await call(open, '/api/hooks', '/api/hooks?cursor=x', { headers: pro }, 400)
    await call(open, '/api/hooks', '/api/hooks', { headers: unknown }, 401)
    await call(open, '/api/hooks', '/api/hooks', { headers: registered }, 403)

    const hookPath = (hook: string, rest = '') => `/api/hooks/${hook}${rest}`
    for (const [template, rest, method] of [
      ['/api/hooks/{id}', '', 'GET'],
      ['/api/hooks/{id}/enable', '/enable', 'POST'],
      ['/api/hooks/{id}/test', '/test', 'POST'],
      ['/api/hooks/{id}/deliveries', '/deliveries', 'GET'],
      ['/api/hooks/{id}/retry-failed', '/retry-failed', 'POST'],
      ['/api/hooks/{id}/deliveries/{delivery}/retry', '/deliveries/msg_none/retry', 'POST'],
      ['/api/hooks/{id}', '', 'DELETE'],
    ] as const) {
      await call(open, template, hookPath(id, rest), { method, headers: {} }, 401)
      await call(open, template, hookPath(id, rest), { method, headers: registered }, 403)
      await call(open, template, hookPath('hook_missing0', rest), { method, headers: pro }, 404)
    }

    await call(open, '/api/hooks/{id}', hookPath(id), { headers: pro }, 200)
    // A test delivery to the receiver: delivered; re-sending a delivered one is a conflict.
    const sent = (await call(open, '/api/hooks/{id}/test', hookPath(id, '/test'), { method: 'POST', headers: pro }, 202)).json as { id: string }
    await until(async () => ((await call(open, '/api/hooks/{id}/deliveries', hookPath(id, '/deliveries?status=delivered'), { headers: pro }, 200)).json as unknown[]).length > 0)
    await call(open, '/api/hooks/{id}/deliveries/{delivery}/retry', hookPath(id, `/deliveries/${sent.id}/retry`), { method: 'POST', headers: pro }, 409)
    // The delivery itself, as the receiver got it, against the `alert` webhook.
    const delivery = received.find((r) => r.headers['webhook-id'] === sent.id)
    expect(delivery).toBeDefined()
    expect(judge.judgeWebhook('alert', delivery!.headers, delivery!.body)).toEqual([])
    expect(judge.judgeWebhook('alert', { ...delivery!.headers, 'webhook-signature': 'sha256=abc' }, delivery!.body)).toEqual([expect.stringMatching(/webhook-signature/)])
    await call(open, '/api/hooks/{id}/deliveries', hookPath(id, '/deliveries?status=done'), { headers: pro }, 400)
    await call(open, '/api/hooks/{id}/deliveries', hookPath(id, '/deliveries'), { headers: pro }, 200)

    // A test delivery to a refused port: parked as failed after its one attempt, which disables
    // the hook (nothing is sent to it until it is enabled: 409), then enabled and re-sent.
    const parked = (await call(open, '/api/hooks/{id}/test', hookPath(failing.id, '/test'), { method: 'POST', headers: pro }, 202)).json as { id: string }
    await until(async () => ((await call(open, '/api/hooks/{id}/deliveries', hookPath(failing.id, '/deliveries?status=failed'), { headers: pro }, 200)).json as unknown[]).length > 0)
    expect((await call(open, '/api/hooks/{id}', hookPath(failing.id), { headers: pro }, 200)).json).toMatchObject({ state: 'disabled' })
    await call(open, '/api/hooks/{id}/test', hookPath(failing.id, '/test'), { method: 'POST', headers: pro }, 409)
    await call(open, '/api/hooks/{id}/retry-failed', hookPath(failing.id, '/retry-failed'), { method: 'POST', headers: pro }, 409)
    await call(open, '/api/hooks/{id}/deliveries/{delivery}/retry', hookPath(failing.id, `/deliveries/${parked.id}/retry`), { method: 'POST', headers: pro }, 409)
    expect((await call(open, '/api/hooks/{id}/enable', hookPath(failing.id, '/enable'), { method: 'POST', headers: pro }, 200)).json).toMatchObject({ state: 'active' })
    await call(open, '/api/hooks/{id}/deliveries/{delivery}/retry', hookPath(failing.id, `/deliveries/${parked.id}/retry`), { method: 'POST', headers: pro }, 200)
    // Its schedule was spent: the one attempt of the re-send fails and disables the hook again.
    await until(async () => ((await call(open, '/api/hooks/{id}', hookPath(failing.id), { headers: pro }, 200)).json as { state: string }).state === 'disabled')
    await call(open, '/api/hooks/{id}/enable', hookPath(failing.id, '/enable'), { method: 'POST', headers: pro }, 200)
    await call(open, '/api/hooks/{id}/retry-failed', hookPath(failing.id, '/retry-failed'), { method: 'POST', headers: pro }, 200)

    await call(open, '/api/hooks/{id}', hookPath(id), { method: 'DELETE', headers: pro }, 204)
    await call(open, '/api/hooks/{id}', hookPath(id), { headers: pro }, 404)
  })

  it('429 on each route once the key is spent', async () => {
    await request(limited.url, '/api/hooks', { headers: pro })
    await call(limited, '/api/hooks', '/api/hooks', post(pro, { url: receiverUrl }), 429)
    await call(limited, '/api/hooks', '/api/hooks', { headers: pro }, 429)
    for (const [template, rest, method] of [
      ['/api/hooks/{id}', '', 'GET'],
      ['/api/hooks/{id}', '', 'DELETE'],
      ['/api/hooks/{id}/enable', '/enable', 'POST'],
      ['/api/hooks/{id}/test', '/test', 'POST'],
      ['/api/hooks/{id}/deliveries', '/deliveries', 'GET'],
      ['/api/hooks/{id}/retry-failed', '/retry-failed', 'POST'],
      ['/api/hooks/{id}/deliveries/{delivery}/retry', '/deliveries/msg_x/retry', 'POST'],
    ] as const) {
      await call(limited, template, `/api/hooks/hook_x${rest}`, { method, headers: pro }, 429)
    }
  })
})

describe('the judge', () => {
  const json = { 'content-type': 'application/json' }
  const errorBody = JSON.stringify({ title: 'Rate-limited', description: 'wait' })
  it('refuses an undocumented status, a body off its schema, a missing header and a wrong reason phrase', () => {
    const fresh = new OpenApiJudge(join(packageRoot(), 'schema', 'openapi.json'))
    expect(fresh.judge('GET', '/host/{ip}', { status: 418, statusMessage: '', headers: json, text: '{}' })).toEqual([expect.stringMatching(/418 is not documented/)])
    expect(fresh.judge('GET', '/host/{ip}', { status: 200, statusMessage: 'OK', headers: json, text: '{"Services":5,"Leaks":null}' })).toEqual([expect.stringMatching(/body breaks/)])
    expect(fresh.judge('GET', '/host/{ip}', { status: 200, statusMessage: 'OK', headers: { 'content-type': 'text/plain' }, text: 'hi' })).toEqual([expect.stringMatching(/content-type "text\/plain" is not documented/)])
    const limitedHeaders = { ...json, 'x-limited-for': '734ms', 'retry-after': '1' }
    expect(fresh.judge('GET', '/host/{ip}', { status: 429, statusMessage: 'Rate-limited', headers: limitedHeaders, text: errorBody })).toEqual([])
    expect(fresh.judge('GET', '/host/{ip}', { status: 429, statusMessage: 'Too Many Requests', headers: limitedHeaders, text: errorBody })).toEqual([expect.stringMatching(/reason phrase/)])
    expect(fresh.judge('GET', '/host/{ip}', { status: 429, statusMessage: 'Rate-limited', headers: { ...json, 'retry-after': '1' }, text: errorBody })).toEqual([expect.stringMatching(/x-limited-for is missing/)])
    expect(fresh.judge('GET', '/host/{ip}', { status: 429, statusMessage: 'Rate-limited', headers: { ...limitedHeaders, 'x-limited-for': '734' }, text: errorBody })).toEqual([expect.stringMatching(/x-limited-for.*breaks/)])
  })
})

describe('plugins and the live stream', () => {
  it('every plugin route status', async () => {
    for (const path of ['/api/plugins', '/api/plugins/TestPlugin']) {
      const template = path === '/api/plugins' ? path : '/api/plugins/{name}'
      await call(open, template, path, {}, 200)
      await call(open, template, path, { headers: unknown }, 401)
      await call(open, template, path, { headers: { accept: 'image/png' } }, 406)
      await request(limited.url, path, { headers: pro })
      await call(limited, template, path, { headers: pro }, 429)
    }
    expect((await call(open, '/api/plugins/{name}', '/api/plugins/NoSuchPlugin', {}, 404)).json).toBe('Plugin not found')
    await call(open, '/api/plugins/{name}', '/api/plugins/%E0%A4%A', {}, 400)
  })

  it('every live stream status: the 101 handshake and each refusal', async () => {
    /** The handshake's answer as the judge reads it (101 on success, the refusal otherwise). */
    const handshake = (service: RunningService, path: string, headers: Record<string, string>) =>
      new Promise<Answer>((resolve, reject) => {
        const ws = new WebSocket(service.url.replace('http', 'ws') + path, { headers })
        ws.once('upgrade', (res) => {
          resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text: '', json: undefined })
          ws.terminate()
        })
        ws.once('unexpected-response', (_req, res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text, json: JSON.parse(text) })
          })
        })
        ws.once('error', reject)
      })
    for (const scope of ['service', 'leak']) {
      const template = `/ws/${scope}`
      const judged = async (service: RunningService, path: string, headers: Record<string, string>, status: number) => {
        const answer = await handshake(service, path, headers)
        expect(judge.judge('GET', template, answer)).toEqual([])
        expect(answer.status).toBe(status)
      }
      await judged(open, template, { ...pro, origin: new URL(open.url).host }, 101)
      await judged(open, `${template}?q=colour%3Ared`, pro, 400)
      await judged(open, `${template}?q=${TOO_COSTLY}`, pro, 422)
      await judged(open, template, unknown, 401)
      await judged(open, template, registered, 403)
      await call(open, template, template, { headers: pro }, 426)
      await request(limited.url, '/host/192.0.2.1', { headers: pro })
      await judged(limited, template, pro, 429)
    }
  })
})

describe('the bulk export', () => {
  it('every status of /bulk/search and /bulk/service, 200 bodies judged line by line', async () => {
    const leak = makeEvent({ event_type: 'leak', ip: '192.0.2.80', port: '6379', event_source: 'RedisOpenPlugin', leak: { ...makeEvent({}).leak, severity: 'high' } })
    await request(open.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: jsonl([leak, makeEvent({ ip: '192.0.2.81', port: '80' })]) })
    for (const template of ['/bulk/search', '/bulk/service']) {
      const found = await call(open, template, `${template}?q=ip%3A192.0.2.80%20ip%3A192.0.2.81`, { headers: pro }, 200)
      expect(found.text.split('\n').filter((l) => l !== '')).toHaveLength(1)
      await call(open, template, `${template}?q=port%3A1`, { headers: pro }, 204)
      await call(open, template, `${template}?q=colour%3Ared`, { headers: pro }, 400)
      await call(open, template, `${template}?q=${TOO_COSTLY}`, { headers: pro }, 422)
      await call(open, template, template, { headers: { 'api-key': 'no-such-key-1' } }, 401)
      await call(open, template, template, { headers: registered }, 403)
      await call(open, template, template, { headers: { ...pro, accept: 'image/png' } }, 406)
      await request(limited.url, '/host/192.0.2.1', { headers: registered })
      await call(limited, template, template, { headers: registered }, 429)
    }
  })
})

describe('search', () => {
  it('every search status but the browser’s', async () => {
    await call(open, '/search', '/search?scope=service&q=*&page=0', {}, 200)
    await call(open, '/search', '/search?scope=leak&q=%2Bcountri%3AFR', {}, 400)
    await call(open, '/search', '/search?scope=leak', { headers: unknown }, 401)
    await call(open, '/search', '/search?scope=leak&page=5', {}, 403)
    await call(open, '/search', '/search?scope=leak', { headers: { accept: 'image/png' } }, 406)
    await request(limited.url, '/search?scope=leak', { headers: pro })
    await call(limited, '/search', '/search?scope=leak', { headers: pro }, 429)
    // A store that gives up after reading 2 events: a text word no index narrows is 422.
    const small = new MemoryStore({ scanLimit: 2 })
    small.ingest([1, 2, 3, 4].map((n) => makeEvent({ ip: `192.0.2.${n}` })))
    const tight = await startService({ store: small, config: parseConfig('{"plans": {"anonymous": {"rate": null}}}', 'tight.json'), port: 0 })
    try {
      await call(tight, '/search', '/search?scope=service&q=%2Bnosuchword', {}, 422)
    } finally {
      await tight.close(100)
    }
  })
})

describe('search count', () => {
  it('every status of /search/count', async () => {
    const route = '/search/count'
    await call(open, route, '/search/count?scope=service&q=*&facet=port,country:3', {}, 200)
    await call(open, route, '/search/count?scope=leak&q=%2Bcountri%3AFR', {}, 400)
    await call(open, route, '/search/count?scope=service&facet=severity', {}, 400)
    await call(open, route, '/search/count?scope=leak', { headers: unknown }, 401)
    await call(open, route, '/search/count?scope=leak', { headers: { accept: 'image/png' } }, 406)
    await request(limited.url, '/search/count?scope=leak', { headers: pro })
    await call(limited, route, '/search/count?scope=leak', { headers: pro }, 429)
    // A plan that may not search may not count (403); a store that gives up after 2 events (422).
    const small = new MemoryStore({ scanLimit: 2 })
    small.ingest([1, 2, 3, 4].map((n) => makeEvent({ ip: `192.0.2.${n}` })))
    const tight = await startService({ store: small, config: parseConfig('{"plans": {"anonymous": {"rate": null, "search_pages": 0}, "pro": {"rate": null}}, "keys": [{"name": "p", "key": "proxy-pro-key-01", "plan": "pro"}]}', 'tight.json'), port: 0 })
    try {
      await call(tight, route, '/search/count?scope=service', {}, 403)
      await call(tight, route, '/search/count?scope=service&q=%2Bnosuchword', { headers: pro }, 422)
    } finally {
      await tight.close(100)
    }
  })
})

describe('coverage', () => {
  it('saw every documented status of every operation', () => {
    const missing = judge.documented().filter((s) => !judge.seen.has(s) && !UNPROVOKED.has(s))
    expect(missing).toEqual([])
  })
})
