/** The dispatcher's own rules, with the HTTP attempt replaced: backoff ceilings, parking, shutdown with a grace period. */
import { describe, expect, it } from 'vitest'
import { backoffDelay, DEFAULT_DELIVERY, Dispatcher, MemoryHookStore } from '../../../src/service/index.js'

const SECRET = 'whsec_' + Buffer.alloc(32, 3).toString('base64')
const event = (n: number) => ({ fingerprint: String(n).padStart(64, '0'), json: `{"n":${n}}` })

async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !ready(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(ready()).toBe(true)
}

describe('backoffDelay', () => {
  it('draws below an exponential ceiling, capped at backoff_max_ms (full jitter)', () => {
    const settings = { backoffMs: 100, backoffMaxMs: 1_000 }
    const top = () => 0.999999
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, settings, top))).toEqual([99, 199, 399, 799, 999, 999])
    expect(backoffDelay(3, settings, () => 0)).toBe(0)
    expect(backoffDelay(200, DEFAULT_DELIVERY, top)).toBe(59_999)
  })
})

describe('Dispatcher', () => {
  it('retries a failing delivery `attempts` times, then parks it with the last error', async () => {
    const store = new MemoryHookStore()
    const hook = store.addHook({ owner: 'a', url: 'http://x.invalid/', minSeverity: 'info', eventTypes: ['leak'], secret: SECRET })
    let calls = 0
    const dispatcher = new Dispatcher(store, {
      settings: { ...DEFAULT_DELIVERY, attempts: 3, backoffMs: 5, backoffMaxMs: 5 },
      allowPrivate: true,
      send: async () => ({ ok: false, status: 503, error: `HTTP 503 (call ${++calls})` }),
    })
    dispatcher.start()
    store.enqueue([hook.id], event(1), Date.now())
    await until(() => store.deliveries(hook.id, 'failed').length === 1)
    expect(calls).toBe(3)
    expect(store.deliveries(hook.id)[0]).toMatchObject({ attempts: 3, lastStatus: 503, lastError: 'HTTP 503 (call 3)' })
    expect(await dispatcher.close(10)).toBe(0)
  })

  it('on close, lets an attempt in flight finish within the grace period and reports what is pending', async () => {
    const store = new MemoryHookStore()
    const hook = store.addHook({ owner: 'a', url: 'http://x.invalid/', minSeverity: 'info', eventTypes: ['leak'], secret: SECRET })
    let release: () => void = () => undefined
    const dispatcher = new Dispatcher(store, {
      settings: DEFAULT_DELIVERY,
      allowPrivate: true,
      send: () => new Promise((resolve) => (release = () => resolve({ ok: true, status: 200, error: null }))),
    })
    dispatcher.start()
    for (let n = 1; n <= 3; n++) store.enqueue([hook.id], event(n), Date.now())
    await until(() => dispatcher.active === 1)
    const closing = dispatcher.close(5_000)
    release()
    expect(await closing).toBe(2) // the first was delivered; the two behind it were never started
    expect(store.deliveries(hook.id, 'delivered')).toHaveLength(1)
  })

  it('on close, cuts off an attempt that outlives the grace period without counting it', async () => {
    const store = new MemoryHookStore()
    const hook = store.addHook({ owner: 'a', url: 'http://x.invalid/', minSeverity: 'info', eventTypes: ['leak'], secret: SECRET })
    const dispatcher = new Dispatcher(store, {
      settings: DEFAULT_DELIVERY,
      allowPrivate: true,
      send: (_c, options) =>
        new Promise((resolve) => options.signal!.addEventListener('abort', () => resolve({ ok: false, status: null, error: 'aborted' }))),
    })
    dispatcher.start()
    store.enqueue([hook.id], event(1), Date.now())
    await until(() => dispatcher.active === 1)
    expect(await dispatcher.close(20)).toBe(1)
    expect(store.deliveries(hook.id)[0]).toMatchObject({ status: 'pending', attempts: 0 })
  })
})
