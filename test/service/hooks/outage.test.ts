/**
 * Issue 33, "Must show" (hooks), delivery as Standard Webhooks and Svix do it: with the default
 * settings (Svix's schedule, 15 s timeout), a receiver down for 30 minutes gets every delivery
 * once it is back, in order and signed (verified by the `standardwebhooks` package); a
 * `Retry-After` on 429 or 503 is waited (seconds or an HTTP date, bounded); a `410 Gone`
 * disables the hook. Real HTTP on 127.0.0.1; the dispatcher's clock and timers are simulated,
 * and `Date` follows them so the receiver's signature check sees the same time.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DEFAULT_DELIVERY, Dispatcher, type DeliverySettings, MemoryHookStore, MemoryStore, queueIngested, type Timers } from '../../../src/service/index.js'
import { generateSecret } from '../../../src/webhooks/signature.js'
import { expectCall, HOOK_KEYS, ingest, leak, serveHooks, startReceiver, waitFor } from './support.js'

const MINUTE = 60_000

/** Simulated time: timers fire only when the test moves the clock past them. */
class VirtualClock implements Timers {
  now: number
  private timers: { at: number; fn: () => void }[] = []
  constructor(start: number) {
    this.now = start
    vi.setSystemTime(start)
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { at: this.now + ms, fn }
    this.timers.push(timer)
    return timer
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t !== handle)
  }
  /** The earliest timer due at or before `until`, taken out; or undefined. */
  takeDue(until: number): { at: number; fn: () => void } | undefined {
    const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0]
    if (due !== undefined) this.timers = this.timers.filter((t) => t !== due)
    return due
  }
  set(at: number): void {
    this.now = Math.max(this.now, at)
    vi.setSystemTime(this.now)
  }
}

/** A receiver that records each request with the simulated time it arrived; `down` resets every connection. */
async function startTimedReceiver(clock: VirtualClock, answer: (n: number) => { status: number; headers?: Record<string, string> }) {
  const got: { at: number; headers: IncomingMessage['headers']; body: string }[] = []
  const state = { down: false, refused: 0 }
  const sockets = new Set<Socket>()
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      got.push({ at: clock.now, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const plan = answer(got.length - 1)
      res.writeHead(plan.status, plan.headers).end()
    })
  })
  server.on('connection', (socket: Socket) => {
    if (state.down) {
      state.refused++
      return void socket.destroy()
    }
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/alerts`
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  )
  return { url, got, state }
}

/** The in-process pipeline: store → matching → memory hook store → dispatcher, on the simulated clock. */
function pipeline(clock: VirtualClock, url: string, settings: DeliverySettings = DEFAULT_DELIVERY) {
  const store = new MemoryStore()
  const hooks = new MemoryHookStore()
  const stop = queueIngested(store, hooks, () => clock.now)
  const secret = generateSecret()
  const hook = hooks.addHook({ owner: 'alice', url, minSeverity: 'info', eventTypes: ['leak', 'service'], secret })
  hooks.addResource('alice', 'domain', 'outage.test')
  // random 0: no jitter, so attempts land exactly on the schedule.
  const dispatcher = new Dispatcher(hooks, { settings, allowPrivate: true, now: () => clock.now, timers: clock, random: () => 0 })
  dispatcher.start()
  let serial = 0
  const send = (n: number) => {
    const events = Array.from({ length: n }, () => leak(`e${serial}.outage.test`, '192.0.2.10', 'high', `event ${serial++}`))
    store.ingest(events.map((e) => ({ ...e, time: new Date(clock.now).toISOString() })))
  }
  /** Quiet: no attempt in flight, twice in a row (a settled attempt wakes the dispatcher on the next turn). */
  const idle = async () => {
    for (let quiet = 0, i = 0; quiet < 2 && i < 1_000; i++) {
      await new Promise((r) => setTimeout(r, 5))
      quiet = dispatcher.active === 0 ? quiet + 1 : 0
    }
  }
  /** Moves the clock to `until`, firing each timer at its time and letting its attempts finish. */
  const runUntil = async (until: number) => {
    for (let fired = 0; fired < 500; fired++) {
      await idle()
      const due = clock.takeDue(until)
      if (due === undefined) break
      clock.set(due.at)
      due.fn()
    }
    clock.set(until)
    await idle()
  }
  const close = async () => {
    await dispatcher.close(100)
    stop()
  }
  return { hooks, hook, secret, send, runUntil, close }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('a receiver down for 30 minutes (default settings: Svix’s schedule)', () => {
  it('gets every delivery after it comes back, in order, each signed and verified by the standardwebhooks package', async () => {
    const t0 = Date.parse('2025-01-06T09:00:00Z')
    const clock = new VirtualClock(t0)
    const receiver = await startTimedReceiver(clock, () => ({ status: 204 }))
    const p = pipeline(clock, receiver.url)
    const verifier = new Webhook(p.secret)
    const verified: string[] = []
    try {
      receiver.state.down = true
      p.send(3)
      await p.runUntil(t0 + 10 * MINUTE)
      p.send(2)
      await p.runUntil(t0 + 20 * MINUTE)
      p.send(1)
      await p.runUntil(t0 + 30 * MINUTE)
      // Down all along: the first event was tried at 0, 5 s and 5 min 5 s; nothing arrived.
      expect(receiver.got).toEqual([])
      expect(receiver.state.refused).toBe(3)
      expect(p.hooks.deliveries(p.hook.id)[0]).toMatchObject({ status: 'pending', attempts: 3, nextAttemptAt: t0 + 35 * MINUTE + 5_000 })

      receiver.state.down = false
      await p.runUntil(t0 + 40 * MINUTE)
      expect(receiver.got.map((g) => JSON.parse(g.body).summary)).toEqual(['event 0', 'event 1', 'event 2', 'event 3', 'event 4', 'event 5'])
      // The schedule's fourth attempt, 30 min after the third: 35 min 5 s after the first.
      expect(receiver.got[0]!.at).toBe(t0 + 35 * MINUTE + 5_000)
      for (const g of receiver.got) {
        vi.setSystemTime(g.at)
        verifier.verify(g.body, g.headers as Record<string, string>)
        verified.push(String(g.headers['webhook-id']))
      }
      expect(verified).toEqual(p.hooks.deliveries(p.hook.id).map((d) => d.id))
      expect(p.hooks.deliveries(p.hook.id).map((d) => d.status)).toEqual(Array(6).fill('delivered'))
      expect(p.hooks.hook('alice', p.hook.id)).toMatchObject({ state: 'active' })
      expect(p.hooks.pendingCount()).toBe(0)
    } finally {
      await p.close()
    }
  })
})

describe('Retry-After', () => {
  it('waits the seconds a 429 asks for, instead of the schedule’s 5 s', async () => {
    const t0 = Date.parse('2025-01-06T10:00:00Z')
    const clock = new VirtualClock(t0)
    const receiver = await startTimedReceiver(clock, (n) => (n === 0 ? { status: 429, headers: { 'retry-after': '120' } } : { status: 200 }))
    const p = pipeline(clock, receiver.url)
    try {
      p.send(1)
      await p.runUntil(t0 + 60_000)
      expect(receiver.got.map((g) => g.at)).toEqual([t0])
      expect(p.hooks.deliveries(p.hook.id)[0]).toMatchObject({ lastStatus: 429, lastError: 'HTTP 429 (Retry-After: 120)', nextAttemptAt: t0 + 120_000 })
      await p.runUntil(t0 + 10 * MINUTE)
      expect(receiver.got.map((g) => g.at)).toEqual([t0, t0 + 120_000])
    } finally {
      await p.close()
    }
  })

  it('waits until the HTTP date a 503 gives, and no longer than retry_after_max_ms however far it asks', async () => {
    const t0 = Date.parse('2025-01-06T11:00:00Z')
    const clock = new VirtualClock(t0)
    const answers = [
      { status: 503, headers: { 'retry-after': new Date(t0 + 7 * MINUTE).toUTCString() } },
      { status: 429, headers: { 'retry-after': '86400' } },
      { status: 200 },
    ]
    const receiver = await startTimedReceiver(clock, (n) => answers[n] ?? { status: 200 })
    const p = pipeline(clock, receiver.url, { ...DEFAULT_DELIVERY, retryAfterMaxMs: 20 * MINUTE })
    try {
      p.send(1)
      await p.runUntil(t0 + 2 * 60 * MINUTE)
      // 7 min (the date, past the 5 s the schedule says), then 20 min (the bound, not a day).
      expect(receiver.got.map((g) => g.at - t0)).toEqual([0, 7 * MINUTE, 27 * MINUTE])
    } finally {
      await p.close()
    }
  })
})

describe('410 Gone', () => {
  it('disables the hook at once: shown in the hook API, its other deliveries parked, new events not sent', async () => {
    vi.useRealTimers()
    const svc = await serveHooks()
    const receiver = await startReceiver(() => ({ status: 410 }))
    await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.alice, { type: 'domain', value: 'gone.test' }, 201)
    const hook = await expectCall<{ id: string }>(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: receiver.url, min_severity: 'info' }, 201)
    await ingest(svc, [leak('a.gone.test', '192.0.2.1', 'high', 'gone 0'), leak('b.gone.test', '192.0.2.2', 'high', 'gone 1')])
    await waitFor('the hook disabled', async () => (await expectCall<{ state: string }>(svc, 'GET', `/api/hooks/${hook.id}`, HOOK_KEYS.alice, undefined, 200)).state === 'disabled')
    const shown = await expectCall(svc, 'GET', `/api/hooks/${hook.id}`, HOOK_KEYS.alice, undefined, 200)
    expect(shown).toMatchObject({ state: 'disabled', disabled_reason: 'the receiver answered 410 Gone' })
    const list = await expectCall<{ status: string; attempts: number; last_status: number | null; last_error: string }[]>(svc, 'GET', `/api/hooks/${hook.id}/deliveries`, HOOK_KEYS.alice, undefined, 200)
    expect(list.map((d) => [d.status, d.attempts, d.last_status])).toEqual([
      ['failed', 1, 410],
      ['failed', 0, null],
    ])
    expect(list[1]!.last_error).toBe('hook disabled: the receiver answered 410 Gone')
    await ingest(svc, [leak('c.gone.test', '192.0.2.3', 'high', 'gone 2')])
    await new Promise((r) => setTimeout(r, 100))
    expect(receiver.requests.map((r) => r.json.summary)).toEqual(['gone 0'])
    expect(await expectCall<unknown[]>(svc, 'GET', `/api/hooks/${hook.id}/deliveries`, HOOK_KEYS.alice, undefined, 200)).toHaveLength(2)
  })
})
