/** The dispatcher's own rules, with the HTTP attempt replaced: the retry schedule, parking, shutdown with a grace period. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_DELIVERY, Dispatcher, MemoryHookStore, retryDelay } from '../../../src/service/index.js'

const SECRET = 'whsec_' + Buffer.alloc(32, 3).toString('base64')
const event = (n: number) => ({ fingerprint: String(n).padStart(64, '0'), json: `{"n":${n}}` })

/** Polls until `ready()` (bounded by the test's timeout: a time of its own could run out on a busy machine). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 10))
}

describe('retryDelay', () => {
  const none = () => 0
  const top = () => 0.999999

  it('follows the schedule (Svix’s by default), adding at most 10 % of jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, DEFAULT_DELIVERY, null, none))).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000])
    expect(retryDelay(1, DEFAULT_DELIVERY, null, top)).toBe(5_499)
    expect(DEFAULT_DELIVERY.timeoutMs).toBe(15_000)
  })

  it('waits as long as a Retry-After asks, never less than the schedule, at most retry_after_max_ms', () => {
    const settings = { retryScheduleMs: [5_000, 300_000], retryAfterMaxMs: 3_600_000 }
    expect(retryDelay(1, settings, 120_000, none)).toBe(120_000)
    expect(retryDelay(2, settings, 120_000, none)).toBe(300_000)
    expect(retryDelay(1, settings, 1_000, none)).toBe(5_000)
    expect(retryDelay(1, settings, 86_400_000, none)).toBe(3_600_000)
  })
})

describe('Dispatcher', () => {
  it('retries a failing delivery as the schedule says, then parks it with the last error and disables the hook', async () => {
    const store = new MemoryHookStore()
    const hook = store.addHook({ owner: 'a', url: 'http://x.invalid/', minSeverity: 'info', eventTypes: ['leak'], secret: SECRET })
    let calls = 0
    const dispatcher = new Dispatcher(store, {
      settings: { ...DEFAULT_DELIVERY, retryScheduleMs: [5, 5] },
      allowPrivate: true,
      send: async () => ({ ok: false, status: 503, error: `HTTP 503 (call ${++calls})` }),
    })
    dispatcher.start()
    store.enqueue([hook.id], event(1), Date.now())
    await until(() => store.deliveries(hook.id, 'failed').length === 1)
    expect(calls).toBe(3)
    expect(store.deliveries(hook.id)[0]).toMatchObject({ attempts: 3, lastStatus: 503, lastError: 'HTTP 503 (call 3)' })
    expect(store.hook('a', hook.id)).toMatchObject({ state: 'disabled', disabledReason: expect.stringContaining('all 3 attempts') })
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
