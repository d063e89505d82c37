/**
 * What every check runs with: one paced client (the server is never hammered), a cache of
 * answers so checks share requests, the names the server is known to hold, and a
 * fast-check helper that reports the smallest failing input with its seed.
 */
import fc, { type Arbitrary } from 'fast-check'
import { ClientError, HookClient, LookupClient, Pacer, type RawResponse, type Rate } from '../client/index.js'
import { BULK_ACCEPT } from '../client/client.js'
import { jsonLines } from '../client/bulk.js'
import { type Method, open } from '../client/http.js'
import type { Problem } from './check.js'
import { Recorder } from './record.js'

/** Who a request is sent as: the user's key (anonymous without one), no key, a key the server cannot know, the pro key. */
export type Identity = 'key' | 'anonymous' | 'wrong' | 'pro'

export interface SuiteOptions {
  baseUrl: string
  apiKey?: string
  proKey?: string
  /** Check ids to run (default all) and to leave out. */
  checks?: string[]
  excludeChecks?: string[]
  /** Seed of every generator (default: random, printed). */
  seed?: number
  /** Generated examples per check (default 10). */
  maxExamples?: number
  /** Requests per second (default 1), or `'auto'`: as fast as the server's 429s allow. */
  rate?: Rate
  /** Names the server holds events for, to start discovery from. */
  domains?: string[]
  ips?: string[]
  /**
   * The server keeps no state (a mock answering with fixed examples): only the given names are
   * asked about (no discovery), and checks that need state (Check.needsState) are skipped.
   */
  stateless?: boolean
  /** Start a hook receiver on 127.0.0.1 (needs a pro key, the admin token and `allowWrites`). */
  hookReceiver?: boolean
  /**
   * The run may write to the server (`--allow-writes`): watched resources and hooks with the pro
   * key, and tagged test events through `POST /admin/events`. Without it nothing is written and
   * the checks that need writes are skipped.
   */
  allowWrites?: boolean
  /** The server's admin token, sent as `authorization: Bearer …` to `POST /admin/events` (the hook checks ingest events). */
  adminToken?: string
  /** How long the hook checks wait for the expected deliveries, milliseconds (default 20 000). */
  hookWaitMs?: number
  /** Per request, milliseconds (default 15 000). */
  timeoutMs?: number
  /** Most requests of one rate-limit burst (default 10). */
  burst?: number
  /** Record every exchange for the HAR cassette (`--report har:FILE`). */
  record?: boolean
  /** Slowest answer allowed, milliseconds (`--max-response-time`; the response-time check). */
  maxResponseTimeMs?: number
  signal?: AbortSignal
  fetch?: typeof fetch
}

/** Thrown inside a property when the suite itself cannot go on (network, timeout, endless 429s). */
class Halt extends Error {
  constructor(readonly error: ClientError) {
    super(error.message)
  }
}

export class SuiteContext {
  readonly maxExamples: number
  readonly seed: number
  /** Domains and IPs the server holds events for (seeds plus what discovery found). */
  readonly known = { domains: [] as string[], ips: [] as string[] }
  /** Every answer received, in order. */
  readonly responses: RawResponse[] = []
  requestCount = 0
  /** What the run wrote to the server and what it left there, for the person running it. */
  readonly notes: string[] = []
  /** The run's exchanges, when they are recorded (`record`). */
  readonly recorder: Recorder | undefined
  /** The fetch every client of the run uses (recording when `record`). */
  readonly fetch: typeof fetch
  /** The one pacer of the run's paced requests (every client shares it: one rate for the run). */
  readonly pacer: Pacer
  /** What the run wrote and could not remove (each also a note): the run then fails, whatever its checks said. */
  readonly leftBehind: string[] = []
  private readonly client: LookupClient
  private readonly burstClient: LookupClient
  private readonly identities = new WeakMap<RawResponse, Identity>()
  private readonly cache = new Map<string, Promise<RawResponse>>()
  private readonly memos = new Map<string, { value: Promise<unknown>; from: number; to: number }>()
  private readonly parsed = new WeakMap<RawResponse, { ok: true; value: unknown } | { ok: false }>()
  readonly wrongKey: string

  constructor(readonly options: SuiteOptions) {
    this.maxExamples = options.maxExamples ?? 10
    this.seed = options.seed ?? 0
    this.wrongKey = `l9kit-conform-wrong-${(this.seed >>> 0).toString(16)}-0f1e2d3c4b5a`
    const base = options.fetch ?? ((input, init) => fetch(input, init))
    if (options.record) {
      this.recorder = new Recorder((headers) => this.identityOfHeaders(headers))
      for (const secret of [options.apiKey, options.proKey, options.adminToken]) if (secret) this.recorder.secrets.add(secret)
      this.fetch = this.recorder.wrap(base)
    } else {
      this.recorder = undefined
      this.fetch = base
    }
    this.pacer = new Pacer(options.rate ?? 1)
    const common = {
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs ?? 15_000,
      maxRetries: 4,
      maxWaitMs: 60_000,
      backoff: { initialMs: 500, maxMs: 8000 },
      validate: false,
      ...(options.signal ? { signal: options.signal } : {}),
      fetch: this.fetch,
      onResponse: (r: RawResponse) => {
        this.requestCount++
        this.responses.push(r)
      },
    }
    this.client = new LookupClient({ ...common, pacer: this.pacer })
    this.burstClient = new LookupClient({ ...common, pacer: new Pacer('auto') })
  }

  /** The check running now (the runner sets it): recorded exchanges name it. */
  set currentCheck(id: string) {
    if (this.recorder) this.recorder.check = id
  }

  /**
   * A client of the hook API and the admin routes (`apiKey`: the key sent), on the run's pacer
   * and fetch; its answers are counted, not kept in `responses` (they are not lookups).
   */
  hookClient(apiKey?: string): HookClient {
    return new HookClient({
      baseUrl: this.options.baseUrl,
      ...(apiKey === undefined ? {} : { apiKey }),
      pacer: this.pacer,
      timeoutMs: this.options.timeoutMs ?? 15_000,
      maxRetries: 4,
      maxWaitMs: 60_000,
      validate: false,
      fetch: this.fetch,
      ...(this.options.signal ? { signal: this.options.signal } : {}),
      onResponse: () => {
        this.requestCount++
      },
    })
  }

  /**
   * Any request as `identity` (paced, 429s waited out, never cached), the answer kept in
   * `responses` like the lookups'. `headers` are added to the client's (accept, user-agent, key).
   */
  async request(method: Method, path: string, identity: Identity | 'admin', send: { text?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<RawResponse> {
    const headers = { ...send.headers }
    if (identity === 'admin' && this.options.adminToken !== undefined) headers.authorization = `Bearer ${this.options.adminToken}`
    const key = identity === 'admin' ? null : this.keyOf(identity)
    const r = await this.client.request(method, path, { ...send, headers }, { apiKey: key })
    if (identity !== 'admin') this.identities.set(r, identity)
    return r
  }

  /** The identity a request's headers show (for the recorder). */
  private identityOfHeaders(headers: Headers): string {
    const auth = headers.get('authorization')
    if (auth !== null && this.options.adminToken !== undefined && auth.endsWith(this.options.adminToken)) return 'admin'
    const key = headers.get('api-key')
    if (key === null || key === '') return 'anonymous'
    if (key === this.options.proKey) return 'pro'
    if (key === this.options.apiKey) return 'key'
    if (key === this.wrongKey) return 'wrong'
    return 'other'
  }

  /** The api-key header sent for an identity (null: none). */
  keyOf(identity: Identity): string | null {
    if (identity === 'key') return this.options.apiKey ?? null
    if (identity === 'pro') return this.options.proKey ?? null
    if (identity === 'wrong') return this.wrongKey
    return null
  }

  /** GET `path` as `identity`, paced, 429s waited out; each distinct request is sent once per run. */
  get(path: string, identity: Identity = 'key'): Promise<RawResponse> {
    const key = `${this.keyOf(identity) ?? ''}\u0000${path}`
    let answer = this.cache.get(key)
    if (!answer) {
      answer = this.client.get(path, { apiKey: this.keyOf(identity) }).then((r) => {
        this.identities.set(r, identity)
        return r
      })
      this.cache.set(key, answer)
      // A failed request may be retried by a later caller.
      answer.catch(() => this.cache.delete(key))
    } else this.recorder?.use('GET', this.client.baseUrl + path, this.keyOf(identity))
    return answer
  }

  /**
   * GET `path` as `identity` (paced, 429s waited out) and read at most `max` lines of a streamed
   * JSON Lines answer, each parsed (not validated); then the connection is closed. A 204 has none.
   * `error`: a line that is not JSON, or the answer broke off.
   */
  async lines(path: string, identity: Identity, max: number): Promise<{ response: RawResponse; lines: unknown[]; truncated: boolean; error?: ClientError }> {
    const response = await this.client.request('GET', path, { headers: { accept: BULK_ACCEPT } }, { apiKey: this.keyOf(identity) }, open)
    this.identities.set(response, identity)
    const lines: unknown[] = []
    if (response.status !== 200 || response.stream === undefined) return { response, lines, truncated: false }
    const reading = jsonLines(response, response.stream, undefined)
    try {
      for await (const line of reading) {
        if (lines.length === max) return { response, lines, truncated: true }
        lines.push(line)
      }
    } catch (error) {
      if (error instanceof ClientError && error.kind !== 'network') return { response, lines, truncated: false, error }
      throw error
    }
    return { response, lines, truncated: false }
  }

  /** One request outside the pacer, not waiting out a 429 (rate-limit probes only). */
  async raw(path: string, identity: Identity): Promise<RawResponse> {
    const r = await this.burstClient.get(path, { apiKey: this.keyOf(identity), retry: false })
    this.identities.set(r, identity)
    return r
  }

  identityOf(response: RawResponse): Identity | undefined {
    return this.identities.get(response)
  }

  /** The body as JSON, or undefined when it is not JSON. */
  json(response: RawResponse): unknown {
    let p = this.parsed.get(response)
    if (!p) {
      try {
        p = { ok: true, value: JSON.parse(response.body) }
      } catch {
        p = { ok: false }
      }
      this.parsed.set(response, p)
    }
    return p.ok ? p.value : undefined
  }

  /** Runs `make` once per run and shares its result (probes several checks judge). */
  memo<T>(name: string, make: () => Promise<T>): Promise<T> {
    const memo = this.memos.get(name)
    if (memo) {
      // The probe's exchanges belong to every check that judges it (the cassette's replay sends them).
      const check = this.recorder?.check ?? ''
      void memo.value.finally(() => this.recorder?.useRange(memo.from, memo.to, check)).catch(() => undefined)
      return memo.value as Promise<T>
    }
    const made = { value: make() as Promise<unknown>, from: this.recorder?.exchanges.length ?? 0, to: Number.POSITIVE_INFINITY }
    void made.value.finally(() => (made.to = this.recorder?.exchanges.length ?? 0)).catch(() => undefined)
    this.memos.set(name, made)
    return made.value as Promise<T>
  }

  /** The seed of a named generator: the run's seed mixed with the name, so one check replays alone. */
  seedFor(name: string): number {
    let h = 0x811c9dc5
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193)
    return (this.seed ^ h) | 0
  }

  /**
   * Judges `maxExamples` generated inputs (after the fixed `examples`); on a failure fast-check
   * shrinks it (at most 20 steps, each one request at most) and the smallest one is returned.
   */
  async property<T>(
    name: string,
    arbitrary: Arbitrary<T>,
    judge: (value: T) => Promise<Problem | undefined>,
    options: { examples?: T[]; runs?: number } = {},
  ): Promise<{ ok: true } | { ok: false; problem: Problem; input: string; path: string; seed: number }> {
    let halted: ClientError | undefined
    const seed = this.seedFor(name)
    const details = await fc.check(
      fc.asyncProperty(fc.limitShrink(arbitrary, 20), async (value) => {
        if (halted) throw new Halt(halted)
        try {
          const problem = await judge(value)
          if (problem) throw new ProblemError(problem)
        } catch (error) {
          if (error instanceof ClientError) {
            halted = error
            throw new Halt(error)
          }
          throw error
        }
      }),
      { seed, numRuns: options.runs ?? this.maxExamples, examples: (options.examples ?? []).map((e) => [e] as [T]) },
    )
    if (halted) throw halted
    if (!details.failed) return { ok: true }
    const error = details.errorInstance
    const problem = error instanceof ProblemError ? error.problem : { message: `the check itself failed: ${String((error as Error)?.message ?? error)}` }
    return { ok: false, problem, input: fc.stringify(details.counterexample?.[0]), path: details.counterexamplePath ?? '', seed }
  }
}

class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.message)
  }
}
