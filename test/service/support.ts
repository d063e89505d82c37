/** Helpers for the service tests: start a service on 127.0.0.1:0, make real HTTP requests, check shapes. */
import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { afterAll } from 'vitest'
import { emptyEvent, type Event } from '../../src/schema/index.js'
import {
  defaultConfig,
  type LimiterOptions,
  MemoryStore,
  packageRoot,
  parseConfig,
  type RunningService,
  type ServiceConfig,
  startService,
  type Store,
} from '../../src/service/index.js'

export interface Answer {
  status: number
  statusMessage: string
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown
}

/** One HTTP request on 127.0.0.1 (a fresh connection each time, so rate-limit buckets are predictable). */
export function request(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, text, json })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

/** Validators compiled from the published files schema/*.schema.json (not from src/schema). */
const ajv = new Ajv2020({ strict: false, allErrors: true })
const compiled = new Map<string, ReturnType<typeof ajv.compile>>()
export function schemaErrors(name: 'lookup-result' | 'subdomains' | 'error' | 'event', data: unknown): string[] {
  let check = compiled.get(name)
  if (!check) {
    const doc = JSON.parse(readFileSync(join(packageRoot(), 'schema', `${name}.schema.json`), 'utf8'))
    check = ajv.compile(doc)
    compiled.set(name, check)
  }
  if (check(data)) return []
  return (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
}

/** A config with no rate limit at all (for tests that are not about rate limiting). */
export function unlimitedConfig(extra: object = {}): ServiceConfig {
  return parseConfig(
    JSON.stringify({
      keys: [
        { name: 'reg', key: 'registered-key-1', plan: 'registered' },
        { name: 'reg2', key: 'registered-key-2', plan: 'registered' },
        { name: 'pro', key: 'pro-key-0000001', plan: 'pro' },
      ],
      admin_token: 'admin-token-0001',
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      ...extra,
    }),
    'test-config.json',
  )
}

export const KEYS = { registered: 'registered-key-1', registered2: 'registered-key-2', pro: 'pro-key-0000001', admin: 'admin-token-0001' }

/** Starts a service for the current test file and stops it after. */
export async function serveForTest(options: { store?: Store; config?: ServiceConfig; limiter?: LimiterOptions } = {}): Promise<RunningService> {
  const running = await startService({
    store: options.store ?? new MemoryStore(),
    config: options.config ?? defaultConfig(),
    host: '127.0.0.1',
    port: 0,
    limiter: options.limiter,
  })
  afterAll(() => running.close(100))
  return running
}

let serial = 0
/** A valid canonical-enough event with the given members (fingerprint computed on ingest). */
export function makeEvent(fields: Partial<Event> & Record<string, unknown>): Event {
  serial++
  return { ...emptyEvent(), event_type: 'service', event_source: 'TestPlugin', summary: `event ${serial}`, ...fields } as Event
}

/** JSON Lines text of documents. */
export const jsonl = (docs: unknown[]) => docs.map((d) => JSON.stringify(d)).join('\n') + '\n'

/**
 * A clock for the service's rate limiter (`limiter: { now: clock.now }`) that moves only when a
 * test moves it: whether a request is a 429 then never depends on how fast the machine is.
 */
export class ManualClock {
  private ms = 0
  readonly now = (): number => this.ms
  /** Lets `ms` milliseconds pass. */
  advance(ms: number): void {
    this.ms += ms
  }
}

/**
 * A rate limiter clock that follows real time, except while `still(...)` runs: then it stands
 * at the instant `still` began, so "immediate" requests are immediate on a busy machine too.
 */
export class HeldClock {
  private held: number | undefined
  readonly now = (): number => this.held ?? performance.now()
  async still<T>(body: () => Promise<T>): Promise<T> {
    this.held = performance.now()
    try {
      return await body()
    } finally {
      this.held = undefined
    }
  }
}
