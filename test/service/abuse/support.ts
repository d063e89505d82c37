/**
 * The abuse suite's tools (issue 40): a service over events made to be costly to search, on the
 * memory store and on PostgreSQL, lookups timed while an abuse runs and while nothing does, and
 * the ratio between the two. Never an absolute time: the suite must hold on a busy 2-core
 * machine, so each bound is a ratio to the same run's idle lookups, and generous.
 */
import { Agent, request as httpRequest } from 'node:http'
import { afterAll, describe } from 'vitest'
import { emptyEvent, type Event } from '../../../src/schema/index.js'
import { MemoryStore, parseConfig, type RunningService, type ServiceConfig, startService, type Store } from '../../../src/service/index.js'
import { PostgresStore, type PostgresStoreOptions } from '../../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from '../postgres/database.js'

/** The audit's costly regular expression, and a query of 128 optional words (issue 40). */
export const COSTLY_REGEX = '+port:22 +summary:~"([^a]{0,50}[^b]{0,50}){10}z"'
export const WORDS_128 = Array.from({ length: 128 }, (_, i) => `w${i}x`).join(' ')

/** Lookups during an abuse may take at most this many times as long as idle ones (p90 to p90). */
export const RATIO = 10

export const KEYS = { pro: 'abuse-pro-key-01', pro2: 'abuse-pro-key-02', probe: 'abuse-probe-key-01', admin: 'abuse-admin-token-01' }

/**
 * The i-th event: a service on port 22 with a summary of about 2 KB that the costly regex reads
 * in full (no `z`), at one of 64 addresses (so lookups find some).
 */
export function costlyEvent(i: number): Event {
  const e = emptyEvent()
  e.event_type = 'service'
  e.event_source = 'AbusePlugin'
  e.ip = `198.51.100.${i % 64}`
  e.port = '22'
  e.event_fingerprint = i.toString(16).padStart(64, '0')
  e.summary = `SSH-2.0-OpenSSH_${i} ${'lorem ipsum dolor sit amet '.repeat(75)}`
  e.time = `2026-01-01T00:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z`
  return e
}

/**
 * A configuration: two pro keys, the probe's key (registered, not rate limited: lookups time the
 * service, not the limiter) and an admin token; `extra` members on top (plans merged per plan).
 */
export function abuseConfig(extra: Record<string, unknown> = {}): ServiceConfig {
  const { plans, ...rest } = extra as { plans?: Record<string, object> }
  return parseConfig(
    JSON.stringify({
      keys: [
        { name: 'pro', key: KEYS.pro, plan: 'pro' },
        { name: 'pro2', key: KEYS.pro2, plan: 'pro' },
        { name: 'probe', key: KEYS.probe, plan: 'registered' },
      ],
      admin_token: KEYS.admin,
      // Evaluation off the lookups' thread at a niceness, not in the idle class: on a machine that
      // other work keeps busy, the idle class would leave the suite's searches waiting for minutes.
      ingest_worker_nice: 10,
      ...rest,
      plans: { pro: { rate: null, ...plans?.pro }, registered: { rate: null, ...plans?.registered }, anonymous: { ...plans?.anonymous } },
    }),
    'abuse.json',
  )
}

export interface StoreKind {
  name: 'memory' | 'postgres'
  /** A fresh store (PostgreSQL: `options` over the suite's: statement timeout 3 s, a search page 1.5 s). */
  make(options?: PostgresStoreOptions): Promise<Store>
}

/**
 * Runs `body` once per store: the memory store, and PostgreSQL (skipped with a message when
 * there is none, failing under CI=true), each in a fresh schema dropped afterwards.
 */
export function forEachStore(name: string, body: (kind: StoreKind) => void): void {
  describe(`${name} (memory store)`, () => body({ name: 'memory', make: async () => new MemoryStore() }))
  const schemas: string[] = []
  const stores: PostgresStore[] = []
  describePostgres(`${name} (PostgreSQL)`, () => {
    body({
      name: 'postgres',
      make: async (options = {}) => {
        const schema = freshSchema()
        schemas.push(schema)
        const store = await PostgresStore.open(DATABASE_URL, { schema, max: 4, statementTimeoutMs: 3_000, searchTimeoutMs: 1_500, ...options })
        stores.push(store)
        return store
      },
    })
    afterAll(async () => {
      await Promise.all(stores.map((s) => s.close(1)))
    })
    dropSchemasAfterAll(schemas)
  })
}

/** Stores `count` costly events. */
async function fill(store: Store, count: number): Promise<void> {
  for (let from = 0; from < count; from += 1000) {
    await store.ingest(Array.from({ length: Math.min(1000, count - from) }, (_, k) => costlyEvent(from + k)))
  }
}

/** A service over `store` holding `count` costly events, stopped after the test file. */
export async function serveAbuse(store: Store, config: ServiceConfig, count: number): Promise<RunningService> {
  await fill(store, count)
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  afterAll(() => service.close(100))
  return service
}

/** Runs `body` with a service of its own (inside a test), stopped when it ends. */
export async function withService<T>(store: Store, config: ServiceConfig, count: number, body: (service: RunningService) => Promise<T>): Promise<T> {
  await fill(store, count)
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  try {
    return await body(service)
  } finally {
    await service.close(100)
  }
}

/** A lookup path that finds events. */
export const LOOKUP = '/host/198.51.100.7'

/**
 * Times lookups of `path` from `clients` clients, each one request after another on its own
 * connection, until `until` settles (at least `least` each); the times in ms, sorted.
 */
export async function timeLookups(base: string, until: Promise<unknown>, options: { clients?: number; least?: number; path?: string } = {}): Promise<number[]> {
  const url = new URL(base)
  let done = false
  void until.then(
    () => (done = true),
    () => (done = true),
  )
  const times: number[] = []
  const client = async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    try {
      for (let n = 0; !done || n < (options.least ?? 20); n++) {
        const started = performance.now()
        const status = await get(agent, url, options.path ?? LOOKUP)
        times.push(performance.now() - started)
        if (status !== 200) throw new Error(`a lookup answered ${status}`)
      }
    } finally {
      agent.destroy()
    }
  }
  await Promise.all(Array.from({ length: options.clients ?? 4 }, client))
  return times.sort((a, b) => a - b)
}

/** Lookups while nothing else runs, for `ms` (a timer, not a measured bound: it only sets how many samples). */
export const idleLookups = (base: string, ms = 1_500) => timeLookups(base, new Promise((resolve) => setTimeout(resolve, ms)))

function get(agent: Agent, url: URL, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, agent, headers: { 'api-key': KEYS.probe } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The p-th fraction's value of sorted times. */
export const quantile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!

/**
 * Runs `abuse` (started once idle lookups were timed, just before: the baseline of the same
 * moment on a machine whose load changes) while timing lookups; its result, and the ratio.
 */
export async function underAbuse<T>(base: string, abuse: () => Promise<T>): Promise<{ result: T; ratio: number; said: string }> {
  const idle = await idleLookups(base)
  const running = abuse()
  const during = await timeLookups(base, running)
  return { result: await running, ...ratioOf(idle, during) }
}

/** p90 during the abuse over p90 idle, and a line saying both (for the assertion's message). */
export function ratioOf(idle: readonly number[], during: readonly number[]): { ratio: number; said: string } {
  const a = quantile(idle, 0.9)
  const b = quantile(during, 0.9)
  return { ratio: b / a, said: `lookup p90 ${b.toFixed(2)} ms during the abuse (${during.length} lookups) against ${a.toFixed(2)} ms idle (${idle.length})` }
}

/** Sends `requests` one after another, `gapMs` apart (the plan's rate), resolving with their statuses. */
export async function atRate<T>(count: number, gapMs: number, send: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    out.push(await send(i))
    const wait = gapMs - (performance.now() - started)
    if (wait > 0 && i < count - 1) await new Promise((resolve) => setTimeout(resolve, wait))
  }
  return out
}
