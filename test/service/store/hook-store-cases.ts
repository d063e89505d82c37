/**
 * The shared case suite every HookStore implementation must pass (as store-cases.ts does for
 * Store): `hookStoreCases('name', () => new MyHookStore({ queueLimit: 3 }))` in a test file.
 * The factory must give an empty store whose queue limit is 3; it may be async (a database).
 * `cleanup`, when given, runs after each case with the store the case used.
 */
import { describe, expect, it } from 'vitest'
import { type HookStore, LimitReached, type NewHook, type QueuedEvent } from '../../../src/service/index.js'

export type HookStoreFactory = () => HookStore | Promise<HookStore>

/** The queue limit the factory's stores must have. */
export const CASES_QUEUE_LIMIT = 3

const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64')
const newHook = (owner: string, extra: Partial<NewHook> = {}): NewHook => ({
  owner,
  url: 'http://127.0.0.1:9/hook',
  minSeverity: 'medium',
  eventTypes: ['leak'],
  secret: SECRET,
  ...extra,
})
const event = (n: number): QueuedEvent => ({ fingerprint: n.toString(16).padStart(64, '0'), json: `{"n":${n}}` })
const LEASE = 10_000

export function hookStoreCases(name: string, factory: HookStoreFactory, cleanup?: (store: HookStore) => Promise<void> | void): void {
  describe(`HookStore cases: ${name}`, () => {
    const withStore = (fn: (store: HookStore) => Promise<void>) => async () => {
      const store = await factory()
      try {
        await fn(store)
      } finally {
        await cleanup?.(store)
      }
    }

    it('keeps resources per owner, oldest first, and removes only the owner’s', withStore(async (store) => {
      const a = await store.addResource('alice', 'domain', 'example.com')
      const b = await store.addResource('bob', 'ip', '192.0.2.1')
      const c = await store.addResource('alice', 'network', '10.0.0.0/8')
      expect(a.id).toMatch(/^res_[0-9A-Za-z]+$/)
      expect(new Set([a.id, b.id, c.id]).size).toBe(3)
      expect((await store.resources('alice')).map((r) => r.value)).toEqual(['example.com', '10.0.0.0/8'])
      expect((await store.resources()).map((r) => r.id)).toEqual([a.id, b.id, c.id])
      expect(await store.removeResource('bob', a.id)).toBe(false)
      expect(await store.removeResource('alice', a.id)).toBe(true)
      expect(await store.removeResource('alice', a.id)).toBe(false)
      expect((await store.resources('alice')).map((r) => r.id)).toEqual([c.id])
    }))

    it('adds config-declared entries once, also when declared concurrently and again later', withStore(async (store) => {
      await store.addResource('alice', 'domain', 'example.com')
      const declared = {
        resources: [
          { owner: 'alice', type: 'domain' as const, value: 'example.com' },
          { owner: 'alice', type: 'ip' as const, value: '192.0.2.1' },
        ],
        hooks: [newHook('alice'), newHook('alice', { minSeverity: 'high' })],
      }
      await Promise.all([store.declare(declared), store.declare(declared), store.declare(declared)])
      await store.declare(declared)
      expect((await store.resources('alice')).map((r) => r.value)).toEqual(['example.com', '192.0.2.1'])
      expect((await store.hooks('alice')).map((h) => h.minSeverity)).toEqual(['medium', 'high'])
    }))

    it('keeps hooks per owner and hides another owner’s hook', withStore(async (store) => {
      const h = await store.addHook(newHook('alice', { minSeverity: 'low', eventTypes: ['leak', 'service'] }))
      expect(h).toMatchObject({ owner: 'alice', minSeverity: 'low', eventTypes: ['leak', 'service'], secret: SECRET })
      expect(h.id).toMatch(/^hook_[0-9A-Za-z]+$/)
      expect(await store.hook('alice', h.id)).toEqual(h)
      expect(await store.hook('bob', h.id)).toBeUndefined()
      expect((await store.hooks('bob')).length).toBe(0)
      expect((await store.hooks()).map((x) => x.id)).toEqual([h.id])
      expect(await store.removeHook('bob', h.id)).toBe(false)
    }))

    it('hands out only the due head of each hook, in queue order, one at a time', withStore(async (store) => {
      const h1 = await store.addHook(newHook('alice'))
      const h2 = await store.addHook(newHook('alice'))
      await store.enqueue([h1.id, h2.id], event(1), 1_000)
      await store.enqueue([h1.id], event(2), 1_000)
      expect(await store.claim(999, LEASE, 10)).toEqual([])
      const first = await store.claim(1_000, LEASE, 10)
      expect(first.map((c) => [c.delivery.hookId, c.delivery.fingerprint]).sort()).toEqual(
        [[h1.id, event(1).fingerprint], [h2.id, event(1).fingerprint]].sort(),
      )
      const c1 = first.find((c) => c.delivery.hookId === h1.id)!
      expect(c1).toMatchObject({ url: h1.url, secret: SECRET, body: event(1).json })
      expect(c1.delivery.id).toMatch(/^msg_[0-9A-Za-z]+$/)
      // Held heads are not handed out again, and the later event waits behind its head.
      expect(await store.claim(1_001, LEASE, 10)).toEqual([])
      await store.settle(c1.delivery.id, { kind: 'delivered', status: 204 }, 1_002)
      const next = await store.claim(1_003, LEASE, 10)
      expect(next.map((c) => c.delivery.fingerprint)).toEqual([event(2).fingerprint])
      const delivered = await store.deliveries(h1.id, 'delivered')
      expect(delivered).toHaveLength(1)
      expect(delivered[0]).toMatchObject({ id: c1.delivery.id, status: 'delivered', attempts: 1, lastStatus: 204, lastError: null, nextAttemptAt: null, updatedAt: 1_002 })
    }))

    it('respects the claim limit', withStore(async (store) => {
      const hooks = [await store.addHook(newHook('a')), await store.addHook(newHook('a')), await store.addHook(newHook('a'))]
      await store.enqueue(hooks.map((h) => h.id), event(1), 0)
      expect(await store.claim(0, LEASE, 2)).toHaveLength(2)
      expect(await store.claim(0, LEASE, 2)).toHaveLength(1)
    }))

    it('lets a claim go when its lease ends (a dispatcher that died)', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      await store.enqueue([h.id], event(1), 0)
      const [c] = await store.claim(0, 500, 1)
      expect(await store.claim(499, 500, 1)).toEqual([])
      const again = await store.claim(500, 500, 1)
      expect(again.map((x) => x.delivery.id)).toEqual([c!.delivery.id])
    }))

    it('holds later deliveries back while the head is retried, then parks it and moves on', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      await store.enqueue([h.id], event(1), 0)
      await store.enqueue([h.id], event(2), 0)
      const [c] = await store.claim(0, LEASE, 5)
      await store.settle(c!.delivery.id, { kind: 'retry', at: 100, status: 500, error: 'HTTP 500' }, 1)
      expect(await store.nextDue()).toBe(100)
      expect(await store.claim(50, LEASE, 5)).toEqual([])
      const [again] = await store.claim(100, LEASE, 5)
      expect(again!.delivery).toMatchObject({ id: c!.delivery.id, attempts: 1, lastStatus: 500, lastError: 'HTTP 500', nextAttemptAt: 100 })
      await store.settle(again!.delivery.id, { kind: 'failed', status: null, error: 'timeout' }, 101)
      const [second] = await store.claim(101, LEASE, 5)
      expect(second!.delivery.fingerprint).toBe(event(2).fingerprint)
      const failed = await store.deliveries(h.id, 'failed')
      expect(failed).toHaveLength(1)
      expect(failed[0]).toMatchObject({ attempts: 2, lastStatus: null, lastError: 'timeout', nextAttemptAt: null })
      expect((await store.deliveries(h.id)).map((d) => d.fingerprint)).toEqual([event(1).fingerprint, event(2).fingerprint])
    }))

    it(`parks deliveries beyond the queue limit (${CASES_QUEUE_LIMIT}) as failed, never drops them`, withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      for (let n = 1; n <= CASES_QUEUE_LIMIT + 2; n++) await store.enqueue([h.id], event(n), n)
      expect(await store.pendingCount()).toBe(CASES_QUEUE_LIMIT)
      const failed = await store.deliveries(h.id, 'failed')
      expect(failed.map((d) => d.fingerprint)).toEqual([event(CASES_QUEUE_LIMIT + 1).fingerprint, event(CASES_QUEUE_LIMIT + 2).fingerprint])
      expect(failed.every((d) => d.lastError === 'queue full' && d.attempts === 0)).toBe(true)
      expect(await store.deliveries(h.id)).toHaveLength(CASES_QUEUE_LIMIT + 2)
    }))

    it('re-queues failed deliveries (one, or all) and sends them in their original order', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      for (let n = 1; n <= 3; n++) await store.enqueue([h.id], event(n), 0)
      for (let n = 1; n <= 3; n++) {
        const [c] = await store.claim(10, LEASE, 1)
        await store.settle(c!.delivery.id, { kind: 'failed', status: 500, error: 'HTTP 500' }, 10)
      }
      expect(await store.pendingCount()).toBe(0)
      expect(await store.nextDue()).toBeNull()
      const [f1, f2] = await store.deliveries(h.id, 'failed')
      expect(await store.retry(h.id, 'msg_nosuchdelivery', 20)).toBe(false)
      expect(await store.retry(h.id, f2!.id, 20)).toBe(true)
      expect(await store.retry(h.id, f2!.id, 20)).toBe(false) // pending now, not failed
      expect(await store.retryFailed(h.id, 20)).toBe(2)
      expect(await store.pendingCount()).toBe(3)
      const order: string[] = []
      for (let i = 0; i < 3; i++) {
        const [c] = await store.claim(20, LEASE, 5)
        order.push(c!.delivery.id)
        await store.settle(c!.delivery.id, { kind: 'delivered', status: 200 }, 21)
      }
      expect(order[0]).toBe(f1!.id)
      expect(order[1]).toBe(f2!.id)
      expect(await store.deliveries(h.id, 'delivered')).toHaveLength(3)
    }))

    it('never hands out a retried delivery while a later one of the same hook is in flight', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      await store.enqueue([h.id], event(1), 0)
      await store.enqueue([h.id], event(2), 0)
      const [first] = await store.claim(10, LEASE, 5)
      await store.settle(first!.delivery.id, { kind: 'failed', status: 500, error: 'HTTP 500' }, 10)
      const [second] = await store.claim(20, LEASE, 5)
      expect(second!.delivery.fingerprint).toBe(event(2).fingerprint)
      expect(await store.retry(h.id, first!.delivery.id, 30)).toBe(true)
      // The retried one is now first in line, but the second is still being sent.
      expect(await store.claim(40, LEASE, 5)).toEqual([])
      await store.settle(second!.delivery.id, { kind: 'delivered', status: 200 }, 50)
      const [again] = await store.claim(60, LEASE, 5)
      expect(again!.delivery.id).toBe(first!.delivery.id)
    }))

    it('removes a hook with its deliveries, and ignores a late settle of one of them', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      const other = await store.addHook(newHook('a'))
      await store.enqueue([h.id, other.id], event(1), 0)
      const claimed = await store.claim(0, LEASE, 5)
      expect(await store.removeHook('a', h.id)).toBe(true)
      expect(await store.hook('a', h.id)).toBeUndefined()
      expect(await store.deliveries(h.id)).toEqual([])
      const mine = claimed.find((c) => c.delivery.hookId === h.id)!
      await store.settle(mine.delivery.id, { kind: 'delivered', status: 200 }, 1)
      expect(await store.pendingCount()).toBe(1)
      await store.enqueue([h.id], event(2), 2) // a removed hook gets nothing
      expect(await store.pendingCount()).toBe(1)
    }))

    it('pages a key’s resources and hooks, oldest first, with a cursor to the next page', withStore(async (store) => {
      const mine: string[] = []
      for (let n = 0; n < 7; n++) {
        mine.push((await store.addResource('alice', 'ip', `192.0.2.${n}`)).id)
        await store.addResource('bob', 'ip', `198.51.100.${n}`)
      }
      const seen: string[] = []
      let cursor: string | null = null
      for (let page = 0; page < 10; page++) {
        const got = await store.resourcePage('alice', { cursor, limit: 3 })
        seen.push(...got.items.map((r) => r.id))
        expect(got.items.every((r) => r.owner === 'alice')).toBe(true)
        cursor = got.next
        if (cursor === null) break
      }
      expect(seen).toEqual(mine)
      expect(await store.resourcePage('alice', { cursor: null, limit: 7 })).toMatchObject({ next: null })
      expect((await store.resourcePage('carol', { cursor: null, limit: 3 })).items).toEqual([])
      // A removed item does not break a cursor taken from it.
      const first = await store.resourcePage('alice', { cursor: null, limit: 2 })
      await store.removeResource('alice', mine[1]!)
      expect((await store.resourcePage('alice', { cursor: first.next, limit: 2 })).items.map((r) => r.id)).toEqual([mine[2], mine[3]])

      const hooks = [await store.addHook(newHook('alice')), await store.addHook(newHook('bob')), await store.addHook(newHook('alice'))]
      const one = await store.hookPage('alice', { cursor: null, limit: 1 })
      expect(one.items.map((h) => h.id)).toEqual([hooks[0]!.id])
      const two = await store.hookPage('alice', { cursor: one.next, limit: 1 })
      expect(two).toEqual({ items: [hooks[2]], next: null })
    }))

    it('refuses a resource or hook past the owner’s limit (LimitReached), counting only that owner’s', withStore(async (store) => {
      await store.addResource('alice', 'domain', 'a.example', 2)
      await store.addResource('alice', 'domain', 'b.example', 2)
      await store.addResource('bob', 'domain', 'c.example', 2)
      await expect(Promise.resolve().then(() => store.addResource('alice', 'domain', 'c.example', 2))).rejects.toEqual(new LimitReached('resources', 2))
      await store.addResource('alice', 'domain', 'd.example') // no limit given: the configuration's declarations
      await store.addHook(newHook('alice'), 1)
      await expect(Promise.resolve().then(() => store.addHook(newHook('alice'), 1))).rejects.toBeInstanceOf(LimitReached)
      await store.addHook(newHook('alice'), null)
      expect((await store.resources('alice')).length).toBe(3)
      expect((await store.hooks('alice')).length).toBe(2)
    }))

    it('disables a hook on a settle that says so: parks its pending deliveries, queues nothing new, re-sends nothing until enabled', withStore(async (store) => {
      const h = await store.addHook(newHook('a'))
      const other = await store.addHook(newHook('a'))
      expect(h).toMatchObject({ state: 'active', disabledAt: null, disabledReason: null })
      for (let n = 1; n <= 2; n++) await store.enqueue([h.id, other.id], event(n), 0)
      const claimed = await store.claim(0, LEASE, 5)
      const head = claimed.find((c) => c.delivery.hookId === h.id)!
      await store.settle(head.delivery.id, { kind: 'failed', status: 410, error: 'HTTP 410', disable: 'the receiver answered 410 Gone' }, 5)
      expect(await store.hook('a', h.id)).toMatchObject({ state: 'disabled', disabledAt: 5, disabledReason: 'the receiver answered 410 Gone' })
      const parked = await store.deliveries(h.id, 'failed')
      expect(parked.map((d) => d.fingerprint)).toEqual([1, 2].map((n) => event(n).fingerprint))
      expect(parked.slice(1).every((d) => d.lastError === 'hook disabled: the receiver answered 410 Gone' && d.attempts === 0)).toBe(true)
      expect(await store.deliveries(h.id, 'pending')).toEqual([])
      // The other hook is untouched; the disabled one gets nothing new and no re-send.
      expect(await store.deliveries(other.id, 'pending')).toHaveLength(2)
      await store.enqueue([h.id], event(4), 6)
      expect(await store.deliveries(h.id)).toHaveLength(2)
      expect(await store.retryFailed(h.id, 7)).toBe(0)
      expect(await store.retry(h.id, parked[0]!.id, 7)).toBe(false)
      expect((await store.claim(8, LEASE, 5)).every((c) => c.delivery.hookId !== h.id)).toBe(true)

      expect(await store.enableHook('b', h.id)).toBeUndefined()
      expect(await store.enableHook('a', h.id)).toMatchObject({ id: h.id, state: 'active', disabledAt: null, disabledReason: null })
      // Enabling leaves the parked deliveries parked: retry-failed sends them, in their order.
      expect(await store.deliveries(h.id, 'pending')).toEqual([])
      expect(await store.retryFailed(h.id, 9)).toBe(2)
      await store.enqueue([h.id], event(5), 10)
      expect((await store.deliveries(h.id, 'pending')).map((d) => d.fingerprint)).toEqual([1, 2, 5].map((n) => event(n).fingerprint))
    }))

    it('reports work to onWork listeners until they stop', withStore(async (store) => {
      let calls = 0
      const stop = store.onWork(() => calls++)
      const h = await store.addHook(newHook('a'))
      await store.enqueue([h.id], event(1), 0)
      await waitUntil(() => calls > 0)
      stop()
      const before = calls
      await store.enqueue([h.id], event(2), 0)
      await new Promise((r) => setTimeout(r, 20))
      expect(calls).toBe(before)
    }))
  })
}

/** Polls `ready` (bounded by the test's timeout: a time of its own could run out on a busy machine). */
async function waitUntil(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10))
}
