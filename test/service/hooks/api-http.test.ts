/**
 * The hook API over real HTTP on 127.0.0.1: every route and status (201, 204, 400 naming the
 * member, 401, 403, 404, 409, 429), and every answer checked against its TypeBox schema.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { TSchema } from 'typebox'
import { beforeAll, describe, expect, it } from 'vitest'
import { CreatedHook, Deliveries, ErrorBody, Hook, Hooks, Resource, Resources, RetryResult } from '../../../src/schema/index.js'
import { secretKey, verify } from '../../../src/webhooks/signature.js'
import type { RunningService } from '../../../src/service/index.js'
import { call, HOOK_KEYS, hookServiceConfig, type Receiver, serveHooks, startReceiver, waitFor } from './support.js'

const ajv = new Ajv2020({ strict: false, allErrors: true })
addFormats.default(ajv)
function shaped<T>(schema: TSchema, value: unknown): T {
  const check = ajv.compile(schema as object)
  expect(check(value), JSON.stringify(check.errors)).toBe(true)
  return value as T
}
async function expectError(answer: Promise<{ status: number; json: unknown; text: string }>, status: number, pattern?: RegExp): Promise<string> {
  const a = await answer
  expect(a.status, a.text).toBe(status)
  const body = shaped<{ description: string }>(ErrorBody, a.json)
  if (pattern) expect(body.description).toMatch(pattern)
  return body.description
}

let svc: RunningService
let receiver: Receiver
beforeAll(async () => {
  svc = await serveHooks()
  receiver = await startReceiver()
})

describe('watched resources', () => {
  it('needs a known key: 401 without one or with an unknown one', async () => {
    await expectError(call(svc, 'GET', '/api/resources', null), 401)
    await expectError(call(svc, 'POST', '/api/resources', 'no-such-key-123', { type: 'ip', value: '192.0.2.1' }), 401)
  })

  it('creates (201, canonical value), lists per key and deletes (204, then 404)', async () => {
    const cases: [string, string, string][] = [
      ['domain', 'WWW.Example.COM.', 'www.example.com'],
      ['ip', '2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
      ['ip', '::ffff:192.0.2.1', '192.0.2.1'],
      ['network', '10.1.2.3/8', '10.0.0.0/8'],
      ['network', '2001:db8:abcd::/32', '2001:db8::/32'],
      ['network', '::ffff:192.0.2.0/120', '192.0.2.0/24'],
    ]
    const ids: string[] = []
    for (const [type, value, canonical] of cases) {
      const a = await call(svc, 'POST', '/api/resources', HOOK_KEYS.reg, { type, value })
      expect(a.status, a.text).toBe(201)
      const r = shaped<{ id: string; type: string; value: string }>(Resource, a.json)
      expect([r.type, r.value]).toEqual([type, canonical])
      ids.push(r.id)
    }
    const listed = shaped<{ id: string }[]>(Resources, (await call(svc, 'GET', '/api/resources', HOOK_KEYS.reg)).json)
    expect(listed.map((r) => r.id)).toEqual(ids)
    expect((await call(svc, 'GET', '/api/resources', HOOK_KEYS.bob)).json).toEqual([])
    await expectError(call(svc, 'DELETE', `/api/resources/${ids[0]}`, HOOK_KEYS.bob), 404)
    const deleted = await call(svc, 'DELETE', `/api/resources/${ids[0]}`, HOOK_KEYS.reg)
    expect(deleted.status).toBe(204)
    expect(deleted.text).toBe('')
    await expectError(call(svc, 'DELETE', `/api/resources/${ids[0]}`, HOOK_KEYS.reg), 404)
  })

  it('answers 400 naming the member for a bad body', async () => {
    const bad: [unknown, RegExp][] = [
      [{ type: 'host', value: 'x' }, /member \/type: must be one of "domain", "ip", "network"/],
      [{ type: 'ip' }, /member \/value: is required/],
      [{ type: 'ip', value: '192.0.2.1', note: 1 }, /member \/note: unknown member/],
      [{ type: 'ip', value: '999.0.0.1' }, /member \/value: "999.0.0.1" is not an IPv4 or IPv6 address/],
      [{ type: 'domain', value: 'bad_name-.com' }, /member \/value: .* is not a domain name/],
      [{ type: 'network', value: '10.0.0.0' }, /member \/value: .* needs '\/'/],
      [{ type: 'network', value: '10.0.0.0/33' }, /prefix length must be 0 to 32/],
      [[1, 2], /the body must be object/],
    ]
    for (const [body, pattern] of bad) await expectError(call(svc, 'POST', '/api/resources', HOOK_KEYS.reg, body), 400, pattern)
    await expectError(
      new Promise((resolve) => resolve(call(svc, 'POST', '/api/resources', HOOK_KEYS.reg, undefined))),
      400,
      /body is empty/,
    )
  })
})

describe('hooks', () => {
  it('needs a pro key: 401 without a key or with an unknown one, 403 for a registered key', async () => {
    for (const path of ['/api/hooks', '/api/hooks/hook_x', '/api/hooks/hook_x/deliveries']) {
      await expectError(call(svc, 'GET', path, null), 401)
      await expectError(call(svc, 'GET', path, 'no-such-key-123'), 401)
      await expectError(call(svc, 'GET', path, HOOK_KEYS.reg), 403, /pro keys only/)
    }
    await expectError(call(svc, 'POST', '/api/hooks', HOOK_KEYS.reg, { url: receiver.url }), 403)
  })

  it('creates a hook (201) with a generated secret shown once, lists it without the secret', async () => {
    const a = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url })
    expect(a.status, a.text).toBe(201)
    const created = shaped<{ id: string; secret: string; min_severity: string; event_types: string[] }>(CreatedHook, a.json)
    expect(created).toMatchObject({ url: receiver.url, min_severity: 'medium', event_types: ['leak'] })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
    expect(secretKey(created.secret)).toHaveLength(32)
    const one = shaped<Record<string, unknown>>(Hook, (await call(svc, 'GET', `/api/hooks/${created.id}`, HOOK_KEYS.alice)).json)
    expect(one).toEqual({ id: created.id, url: receiver.url, min_severity: 'medium', event_types: ['leak'], state: 'active', disabled_at: null, disabled_reason: null })
    const all = shaped<Record<string, unknown>[]>(Hooks, (await call(svc, 'GET', '/api/hooks', HOOK_KEYS.alice)).json)
    expect(all.map((h) => h.id)).toContain(created.id)
    expect(all.every((h) => !('secret' in h))).toBe(true)
  })

  it('keeps a given secret, and answers 400 naming the member for a bad body', async () => {
    const secret = 'whsec_' + Buffer.alloc(24, 1).toString('base64')
    const a = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url, secret, min_severity: 'info', event_types: ['service', 'leak'] })
    expect(a.status, a.text).toBe(201)
    expect(a.json).toMatchObject({ secret, min_severity: 'info', event_types: ['service', 'leak'] })
    const bad: [unknown, RegExp][] = [
      [{}, /member \/url: is required/],
      [{ url: receiver.url, min_severity: 'urgent' }, /member \/min_severity: must be one of "critical", "high", "medium", "low", "info"/],
      [{ url: receiver.url, event_types: [] }, /member \/event_types: /],
      [{ url: receiver.url, event_types: ['leak', 'leak'] }, /member \/event_types: .*duplicate/],
      [{ url: receiver.url, event_types: ['dns'] }, /member \/event_types\/0: must be one of "leak", "service"/],
      [{ url: receiver.url, secret: 'hunter2' }, /member \/secret: must be whsec_/],
      // 33 base64 characters: not whole quads, so no key could be decoded from it.
      [{ url: receiver.url, secret: 'whsec_' + 'A'.repeat(33) }, /member \/secret: must be whsec_/],
      [{ url: receiver.url, active: true }, /member \/active: unknown member/],
      [{ url: 'gopher://x/' }, /member \/url: the scheme must be http or https/],
    ]
    for (const [body, pattern] of bad) {
      const text = await expectError(call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, body), 400, pattern)
      expect(text).not.toContain('hunter2')
    }
  })

  it('takes secrets of 24 to 64 bytes as the docs and the Standard Webhooks specification say, and refuses 22, 23, 65 and 66', async () => {
    const secret = (bytes: number) => 'whsec_' + Buffer.alloc(bytes, 0x5a).toString('base64')
    for (const bytes of [24, 25, 26, 63, 64]) {
      const a = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.bob, { url: receiver.url, secret: secret(bytes) })
      expect(a.status, `${bytes} bytes: ${a.text}`).toBe(201)
      expect(secretKey((a.json as { secret: string }).secret)).toHaveLength(bytes)
      await call(svc, 'DELETE', `/api/hooks/${(a.json as { id: string }).id}`, HOOK_KEYS.bob)
    }
    for (const bytes of [22, 23, 65, 66]) {
      await expectError(call(svc, 'POST', '/api/hooks', HOOK_KEYS.bob, { url: receiver.url, secret: secret(bytes) }), 400, /member \/secret: must be whsec_ followed by the base64 of 24 to 64 bytes/)
    }
  })

  it('hides another owner’s hook (404) on every route', async () => {
    const created = (await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url })).json as { id: string }
    for (const [method, path] of [
      ['GET', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['GET', '/deliveries'],
      ['POST', '/retry-failed'],
      ['POST', '/deliveries/msg_x/retry'],
    ] as const) {
      await expectError(call(svc, method, `/api/hooks/${created.id}${path}`, HOOK_KEYS.bob), 404, /No hook/)
    }
    expect((await call(svc, 'GET', `/api/hooks/${created.id}`, HOOK_KEYS.alice)).status).toBe(200)
  })

  it('sends a signed sample event on POST /test (202 with the delivery), whatever the hook’s filters', async () => {
    const created = (await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url, min_severity: 'critical', event_types: ['service'] })).json as { id: string; secret: string }
    const a = await call(svc, 'POST', `/api/hooks/${created.id}/test`, HOOK_KEYS.alice)
    expect(a.status, a.text).toBe(202)
    const [delivery] = shaped<{ id: string; status: string }[]>(Deliveries, [a.json])
    await waitFor('the test delivery', () => receiver.requests.some((r) => r.headers['webhook-id'] === delivery!.id))
    const got = receiver.requests.find((r) => r.headers['webhook-id'] === delivery!.id)!
    expect(got.json.event_type).toBe('leak')
    expect(verify(created.secret, got.headers as Record<string, string>, got.body)).toEqual({ ok: true })
    const list = shaped<{ id: string; status: string; created_at: string }[]>(Deliveries, (await call(svc, 'GET', `/api/hooks/${created.id}/deliveries`, HOOK_KEYS.alice)).json)
    expect(list.map((d) => [d.id, d.status])).toEqual([[delivery!.id, 'delivered']])
    expect(list[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/)
    shaped(RetryResult, (await call(svc, 'POST', `/api/hooks/${created.id}/retry-failed`, HOOK_KEYS.alice)).json)
    await expectError(call(svc, 'GET', `/api/hooks/${created.id}/deliveries?status=lost`, HOOK_KEYS.alice), 400, /status parameter must be one of pending, delivered, failed/)
  })

  it('deletes a hook (204), after which it is 404', async () => {
    const created = (await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url })).json as { id: string }
    const a = await call(svc, 'DELETE', `/api/hooks/${created.id}`, HOOK_KEYS.alice)
    expect(a.status).toBe(204)
    await expectError(call(svc, 'GET', `/api/hooks/${created.id}`, HOOK_KEYS.alice), 404)
    await expectError(call(svc, 'DELETE', `/api/hooks/${created.id}`, HOOK_KEYS.alice), 404)
  })

  it('answers 404 for unknown routes under /api/hooks and /api/resources, 405 with allow for another method of a known one', async () => {
    await expectError(call(svc, 'PUT', '/api/hooks', HOOK_KEYS.alice), 405, /PUT is not allowed on "\/api\/hooks"; it takes GET, POST/)
    await expectError(call(svc, 'GET', '/api/hooks/a/b/c/d/e', HOOK_KEYS.alice), 404)
    await expectError(call(svc, 'POST', '/api/resources/x', HOOK_KEYS.alice), 405, /it takes DELETE/)
    await expectError(call(svc, 'GET', '/api/hooks/hook_x/nothing', HOOK_KEYS.alice), 404)
    await expectError(call(svc, 'GET', '/api/hookss', HOOK_KEYS.alice), 404)
  })
})

describe('rate limits', () => {
  it('charges the hook API to the key’s plan bucket, like lookups (429 with x-limited-for)', async () => {
    // The limiter's clock stands still: "immediate" on a busy machine too.
    const limited = await serveHooks({ config: hookServiceConfig({ plans: { pro: { rate: 1, burst: 2 } } }), limiter: { now: () => 0 } })
    const answers = []
    for (let i = 0; i < 3; i++) answers.push(await call(limited, 'GET', '/api/hooks', HOOK_KEYS.alice))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    expect(answers[2]!.headers['x-limited-for']).toMatch(/^\d+(\.\d+)?m?s$/)
  })
})
