/** Helpers for the hook tests: receivers on 127.0.0.1, a service with hook keys, API calls, bounded waits. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { afterAll, expect } from 'vitest'
import {
  type HookStore,
  type LimiterOptions,
  MemoryStore,
  parseConfig,
  type Resolver,
  type RunningService,
  type ServiceConfig,
  startService,
} from '../../../src/service/index.js'
import { type Answer, jsonl, request } from '../support.js'

export const HOOK_KEYS = { alice: 'pro-key-alice-01', bob: 'pro-key-bob-0001', reg: 'registered-key-01', admin: 'admin-token-0001' }

/** Small delays so retries and parking happen within a test. */
export const FAST_DELIVERY = { timeout_ms: 1_000, attempts: 4, backoff_ms: 10, backoff_max_ms: 40 }

/** Two pro keys (alice, bob), one registered key, no rate limits, private hooks allowed unless said. */
export function hookServiceConfig(extra: Record<string, unknown> = {}): ServiceConfig {
  return parseConfig(
    JSON.stringify({
      keys: [
        { name: 'alice', key: HOOK_KEYS.alice, plan: 'pro' },
        { name: 'bob', key: HOOK_KEYS.bob, plan: 'pro' },
        { name: 'reg', key: HOOK_KEYS.reg, plan: 'registered' },
      ],
      admin_token: HOOK_KEYS.admin,
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      allow_private_hooks: true,
      hook_delivery: FAST_DELIVERY,
      ...extra,
    }),
    'hook-test-config.json',
  )
}

/** Starts a service for one test file (stopped after it). */
export async function serveHooks(options: { config?: ServiceConfig; resolve?: Resolver; hooks?: HookStore; limiter?: LimiterOptions } = {}): Promise<RunningService> {
  const running = await startService({
    store: new MemoryStore(),
    config: options.config ?? hookServiceConfig(),
    host: '127.0.0.1',
    port: 0,
    resolve: options.resolve,
    hooks: options.hooks,
    limiter: options.limiter,
  })
  afterAll(() => running.close(100))
  return running
}

/** A JSON call of the API with a key. */
export function call(service: RunningService, method: string, path: string, key: string | null, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key !== null) headers['api-key'] = key
  return request(service.url, path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}

/** POST a JSON call and expect `status`; returns the parsed body. */
export async function expectCall<T = unknown>(service: RunningService, method: string, path: string, key: string | null, body: unknown, status: number): Promise<T> {
  const answer = await call(service, method, path, key, body)
  expect(answer.status, answer.text).toBe(status)
  return answer.json as T
}

/** Ingests documents through POST /admin/events; returns the report. */
export async function ingest(service: RunningService, docs: unknown[]): Promise<{ accepted: number; duplicates: number }> {
  const answer = await request(service.url, '/admin/events', {
    method: 'POST',
    headers: { authorization: `Bearer ${HOOK_KEYS.admin}`, 'content-type': 'application/x-ndjson' },
    body: jsonl(docs),
  })
  expect(answer.status, answer.text).toBe(200)
  return answer.json as { accepted: number; duplicates: number }
}

export interface Received {
  headers: IncomingMessage['headers']
  /** The raw body as text. */
  body: string
  /** Parsed body. */
  json: { event_fingerprint: string; summary: string; host: string; ip: string; event_type: string } & Record<string, unknown>
}

/** What a receiver does with its n-th request (0-based): answer a status (after `delayMs`) or never answer. */
export type Behaviour = (n: number) => { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang'

export interface Receiver {
  url: string
  requests: Received[]
  behaviour: Behaviour
  close(): Promise<void>
}

/** A hook receiver on 127.0.0.1 that records every request; closed after the test file. */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 })): Promise<Receiver> {
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()
  const receiver: Receiver = { url: '', requests: [], behaviour, close: async () => undefined }
  let count = 0
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      receiver.requests.push({ headers: req.headers, body, json: JSON.parse(body) })
      const plan = receiver.behaviour(count++)
      if (plan === 'hang') return
      const answer = () => res.writeHead(plan.status, { 'content-type': 'text/plain', ...plan.headers }).end('ok')
      if (!plan.delayMs) return answer()
      const timer = setTimeout(answer, plan.delayMs)
      timers.add(timer)
    })
  })
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  receiver.url = `http://127.0.0.1:${port}/hook`
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t)
      for (const s of sockets) s.destroy()
      server.close(() => resolve())
    })
  afterAll(() => receiver.close())
  return receiver
}

/** Polls until `ready()` is true, at most `ms` (then fails with `what`): a bound for a hang, generous for a busy machine. */
export async function waitFor(what: string, ready: () => boolean | Promise<boolean>, ms = 90_000): Promise<void> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await ready()) return
    await new Promise((r) => setTimeout(r, 20))
  }
  expect.fail(`timed out waiting for ${what}`)
}

/** A leak event document (lenient: ingest normalises it). */
export function leak(host: string, ip: string, severity: string, summary: string): Record<string, unknown> {
  return { event_type: 'leak', event_source: 'HookTest', host, ip, port: '443', time: '2024-03-01T00:00:00Z', summary, leak: { severity, stage: 'open' } }
}

/** A service event document. */
export function service(host: string, ip: string, summary: string): Record<string, unknown> {
  return { event_type: 'service', event_source: 'HookTest', host, ip, port: '80', time: '2024-03-01T00:00:00Z', summary }
}
