/**
 * Issue 9, "Must show" (faults) over real HTTP on 127.0.0.1: a receiver failing its first
 * requests, one that never answers (then retry-failed), a slow one beside a fast one and beside
 * the lookups, and a bounded queue. Judged by what arrives and by request counts, not by
 * wall-clock bounds.
 */
import { describe, expect, it } from 'vitest'
import type { CreatedHook, Delivery } from '../../../src/schema/index.js'
import type { RunningService } from '../../../src/service/index.js'
import { request } from '../support.js'
import { expectCall, FAST_DELIVERY, HOOK_KEYS, hookServiceConfig, ingest, leak, startReceiver, serveHooks, waitFor, type Receiver } from './support.js'

async function hookFor(svc: RunningService, receiver: Receiver, domain: string, key = HOOK_KEYS.alice): Promise<CreatedHook> {
  await expectCall(svc, 'POST', '/api/resources', key, { type: 'domain', value: domain }, 201)
  return expectCall<CreatedHook>(svc, 'POST', '/api/hooks', key, { url: receiver.url, min_severity: 'info' }, 201)
}

const events = (domain: string, n: number, tag: string) => Array.from({ length: n }, (_, i) => leak(`h${i}.${domain}`, `192.0.2.${i + 1}`, 'high', `${tag}-${i}`))
const deliveries = (svc: RunningService, hook: CreatedHook, status?: string) =>
  expectCall<Delivery[]>(svc, 'GET', `/api/hooks/${hook.id}/deliveries${status ? `?status=${status}` : ''}`, HOOK_KEYS.alice, undefined, 200)
/** The summaries received, repeats of the same delivery (same webhook-id) collapsed. */
const distinct = (receiver: Receiver) => {
  const seen = new Set<string>()
  return receiver.requests.filter((r) => !seen.has(String(r.headers['webhook-id'])) && seen.add(String(r.headers['webhook-id']))).map((r) => r.json.summary)
}

describe('a receiver that answers 500 to its first 3 requests, then 200', () => {
  it('ends with every event delivered, in order', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, attempts: 5 } }) })
    const receiver = await startReceiver((n) => ({ status: n < 3 ? 500 : 200 }))
    const hook = await hookFor(svc, receiver, 'flaky.test')
    const sent = events('flaky.test', 6, 'flaky')
    await ingest(svc, sent)
    await waitFor('every delivery settled', async () => (await deliveries(svc, hook, 'delivered')).length === sent.length)
    expect(distinct(receiver)).toEqual(sent.map((e) => e.summary))
    // The first event was tried 4 times under one webhook-id; nothing was delivered out of order.
    expect(receiver.requests.slice(0, 4).map((r) => r.json.summary)).toEqual(['flaky-0', 'flaky-0', 'flaky-0', 'flaky-0'])
    const list = await deliveries(svc, hook)
    expect(list[0]).toMatchObject({ status: 'delivered', attempts: 4, last_status: 200, last_error: null })
  })
})

describe('a receiver that never answers', () => {
  it('parks the first after its schedule and disables the hook (the rest parked with it); enable, then retry-failed delivers all in order', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, timeout_ms: 150, attempts: 2 } }) })
    const receiver = await startReceiver(() => 'hang')
    const hook = await hookFor(svc, receiver, 'dead.test')
    const sent = events('dead.test', 3, 'dead')
    await ingest(svc, sent)
    await waitFor('every delivery parked', async () => (await deliveries(svc, hook, 'failed')).length === sent.length)
    const failed = await deliveries(svc, hook, 'failed')
    expect(failed[0]).toMatchObject({ attempts: 2, last_status: null })
    expect(failed[0]!.last_error).toMatch(/timeout/)
    // The two behind it were never tried: the hook was disabled, which parks what it had pending.
    expect(failed.slice(1).every((d) => d.attempts === 0 && /^hook disabled: all 2 attempts of delivery msg_\w+ failed/.test(d.last_error ?? ''))).toBe(true)
    expect(await deliveries(svc, hook, 'pending')).toEqual([])
    const shown = await expectCall<{ state: string; disabled_reason: string; disabled_at: string }>(svc, 'GET', `/api/hooks/${hook.id}`, HOOK_KEYS.alice, undefined, 200)
    expect(shown).toMatchObject({ state: 'disabled', disabled_reason: expect.stringMatching(/^all 2 attempts of delivery msg_\w+ failed, over 10 ms \(last: timeout/) })
    expect(shown.disabled_at).toMatch(/Z$/)

    // A disabled hook takes no re-send and gets no new event until it is enabled.
    await expectCall(svc, 'POST', `/api/hooks/${hook.id}/retry-failed`, HOOK_KEYS.alice, undefined, 409)
    await ingest(svc, events('dead.test', 4, 'dead').slice(3))
    expect(await deliveries(svc, hook)).toHaveLength(3)
    receiver.behaviour = () => ({ status: 204 })
    const before = receiver.requests.length
    expect(await expectCall(svc, 'POST', `/api/hooks/${hook.id}/enable`, HOOK_KEYS.alice, undefined, 200)).toMatchObject({ state: 'active', disabled_at: null, disabled_reason: null })
    expect(await expectCall(svc, 'POST', `/api/hooks/${hook.id}/retry-failed`, HOOK_KEYS.alice, undefined, 200)).toEqual({ queued: 3 })
    await waitFor('every delivery sent again', async () => (await deliveries(svc, hook, 'delivered')).length === sent.length)
    expect(receiver.requests.slice(before).map((r) => r.json.summary)).toEqual(sent.map((e) => e.summary))
    // The same webhook-id as the failed attempts: a receiver can recognise the repeat.
    expect(receiver.requests.slice(before).map((r) => r.headers['webhook-id'])).toEqual(failed.map((d) => d.id))
  })

  it('re-sends one failed delivery with the retry route; 409 for one that is not failed, 404 for an unknown one', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, timeout_ms: 100, attempts: 1 } }) })
    const receiver = await startReceiver(() => 'hang')
    const hook = await hookFor(svc, receiver, 'one.test')
    await ingest(svc, events('one.test', 2, 'one'))
    await waitFor('both parked', async () => (await deliveries(svc, hook, 'failed')).length === 2)
    receiver.behaviour = () => ({ status: 200 })
    const [first, second] = await deliveries(svc, hook, 'failed')
    const path = `/api/hooks/${hook.id}/deliveries/${second!.id}/retry`
    await expectCall(svc, 'POST', path, HOOK_KEYS.alice, undefined, 409) // disabled
    await expectCall(svc, 'POST', `/api/hooks/${hook.id}/enable`, HOOK_KEYS.alice, undefined, 200)
    expect(await expectCall(svc, 'POST', path, HOOK_KEYS.alice, undefined, 200)).toEqual({ queued: 1 })
    await waitFor('the second delivered', async () => (await deliveries(svc, hook, 'delivered')).length === 1)
    await expectCall(svc, 'POST', path, HOOK_KEYS.alice, undefined, 409)
    await expectCall(svc, 'POST', `/api/hooks/${hook.id}/deliveries/msg_nosuch/retry`, HOOK_KEYS.alice, undefined, 404)
    expect((await deliveries(svc, hook, 'failed')).map((d) => d.id)).toEqual([first!.id])
  })
})

describe('answers that are not 2xx', () => {
  it('a redirect is not followed: it is a failed attempt with its status', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, attempts: 2 } }) })
    const target = await startReceiver()
    const receiver = await startReceiver(() => ({ status: 307, headers: { location: target.url } }))
    const hook = await hookFor(svc, receiver, 'redirect.test')
    await ingest(svc, events('redirect.test', 1, 'redirect'))
    await waitFor('the delivery parked', async () => (await deliveries(svc, hook, 'failed')).length === 1)
    const [parked] = await deliveries(svc, hook, 'failed')
    expect(parked).toMatchObject({ attempts: 2, last_status: 307, last_error: 'HTTP 307 (redirects are not followed)' })
    expect(receiver.requests).toHaveLength(2)
    expect(target.requests).toHaveLength(0)
  })
})

describe('bounded queues', () => {
  it('parks events beyond queue_limit as failed ("queue full"), never drops them', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, timeout_ms: 5_000, queue_limit: 2 } }) })
    const receiver = await startReceiver(() => 'hang')
    const hook = await hookFor(svc, receiver, 'full.test')
    await ingest(svc, events('full.test', 5, 'full'))
    const all = await deliveries(svc, hook)
    expect(all).toHaveLength(5)
    expect(all.filter((d) => d.status === 'pending')).toHaveLength(2)
    const parked = all.filter((d) => d.status === 'failed')
    expect(parked).toHaveLength(3)
    expect(parked.every((d) => d.last_error === 'queue full')).toBe(true)
  })
})

describe('a receiver that takes 2 s per request', () => {
  it('does not delay another hook’s deliveries', async () => {
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, timeout_ms: 5_000 } }) })
    const slow = await startReceiver(() => ({ status: 200, delayMs: 2_000 }))
    const fast = await startReceiver()
    await hookFor(svc, slow, 'shared.test', HOOK_KEYS.alice)
    await hookFor(svc, fast, 'shared.test', HOOK_KEYS.bob)
    const sent = events('shared.test', 20, 'shared')
    await ingest(svc, sent)
    await waitFor('the fast hook has everything', () => fast.requests.length === sent.length)
    // Had the slow hook set the pace, the fast one would be at most one request ahead of it. It is
    // far ahead: the slow hook has had a handful of requests at most (one per 2 s) while the fast
    // one got all 20 (counts, so a loaded machine moves neither side of the comparison much).
    expect(slow.requests.length).toBeLessThan(sent.length / 4)
    expect(fast.requests.map((r) => r.json.summary)).toEqual(sent.map((e) => e.summary))
  })

  it('answers host lookups while slow deliveries are in flight (counted, not timed)', async () => {
    // The p99 comparison itself is a benchmark (no timing assertions in tests). What a test can
    // show by counting: with five hooks whose receivers hold every request open, every one of
    // 200 lookups is answered while all five deliveries are still in flight, so a slow hook
    // never stands between a lookup and its answer.
    const svc = await serveHooks({ config: hookServiceConfig({ hook_delivery: { ...FAST_DELIVERY, timeout_ms: 30_000 } }) })
    await ingest(svc, events('lookup.test', 50, 'seed'))
    const held = await Promise.all(Array.from({ length: 5 }, () => startReceiver(() => 'hang')))
    for (const r of held) await hookFor(svc, r, 'busy.test')
    await ingest(svc, events('busy.test', 5, 'busy'))
    await waitFor('every slow receiver holds a delivery', () => held.every((r) => r.requests.length === 1))
    let answered = 0
    for (let i = 0; i < 200; i++) {
      const answer = await request(svc.url, `/host/192.0.2.${(i % 50) + 1}`, { headers: { 'api-key': HOOK_KEYS.reg } })
      expect(answer.status).toBe(200)
      answered++
    }
    expect(answered).toBe(200)
    // Still one request each: none was answered, none was retried or re-sent meanwhile.
    expect(held.map((r) => r.requests.length)).toEqual([1, 1, 1, 1, 1])
  }, 180_000)
})
