/**
 * The mutation harness (issue 44; test code only): mutants of the reference service, each one
 * small wrapper that breaks one promise at one layer, and `l9kit conform` run against each.
 * A mutant is killed when the checks named in `killedBy` fail, and only they: weakening a check
 * (one that passes everything) leaves its mutants alive, and the mutation test says so.
 *
 * Two ways to wrap: `proxy()` puts an HTTP proxy in front of a service and rewrites requests or
 * answers (the HTTP layer: statuses, headers, bodies, parameters); `service()` starts the
 * reference service on a store, hook store or configuration whose one method is wrapped (the
 * store's results, paging and order; the hook dispatcher's queue; the live stream's feed).
 * Read-only mutants share one base service (`shared()`); those whose run writes get their own.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { runSuite, type SuiteOptions, type SuiteReport } from '../../../src/conformance/index.js'
import { defaultConfig, DEMO_SECRETS, demoEvents, MemoryHookStore, MemoryStore, type RunningService, type ServiceConfig, startService, type Store } from '../../../src/service/index.js'

export interface Running {
  url: string
  close(): Promise<void>
}

/** Which run a mutant is judged with (the checks it runs and the options they need). */
export type RunKind = 'read' | 'writes'

export interface Mutant {
  id: string
  /** The layer the wrapper sits at. */
  layer: string
  /** The promise it breaks, in a few words. */
  breaks: string
  /** The checks that must fail, and no other of the run's. */
  killedBy: string[]
  /** The checks the run has (a family or two: each run stays small). */
  checks: string[]
  /** `writes`: --allow-writes with the pro key, the admin token and the hook receiver. */
  run?: RunKind
  /** More suite options (e.g. --max-response-time). */
  options?: Partial<SuiteOptions>
  start(base: Bases): Promise<Running>
}

/** The services mutants may share. */
export interface Bases {
  /** The read-only base: demo data, no limit in effect (nobody writes to it). */
  read: string
}

/** The reference service's configuration for mutants: demo keys, pages of 5, no rate limit in the way unless asked. */
export function mutantConfig(limitAnonymous = false): ServiceConfig {
  const config = defaultConfig()
  config.plans.registered.rate = { rate: 1000, burst: 1000 }
  config.plans.pro.rate = { rate: 1000, burst: 1000 }
  if (!limitAnonymous) config.plans.anonymous.rate = { rate: 1000, burst: 1000 }
  config.searchPageSize = 5
  return config
}

/** A memory store holding the demo data. */
export async function demoStore(): Promise<MemoryStore> {
  const store = new MemoryStore()
  await store.ingest(demoEvents())
  return store
}

/**
 * `target` with some of its methods replaced: `wrap(original)` gets the bound original and
 * returns the replacement. Everything else goes to the store as it is.
 */
export function wrapStore<S extends object>(target: S, methods: { [K in keyof S]?: (original: S[K]) => S[K] }): S {
  return new Proxy(target, {
    get(t, key, receiver) {
      const value = Reflect.get(t, key, t) as unknown
      const wrap = (methods as Record<PropertyKey, ((o: unknown) => unknown) | undefined>)[key]
      if (wrap) return wrap(typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value)
      void receiver
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value
    },
  })
}

/** Starts the reference service on a store (default: a fresh demo store) with this hook store and configuration. */
export async function service(options: { store?: Store; hooks?: MemoryHookStore; config?: ServiceConfig } = {}): Promise<Running & { service: RunningService }> {
  const store = options.store ?? (await demoStore())
  const running = await startService({ store, config: options.config ?? mutantConfig(), host: '127.0.0.1', port: 0, ...(options.hooks ? { hooks: options.hooks } : {}) })
  return { url: running.url, service: running, close: async () => void (await running.close(500)) }
}

export interface Answer {
  status: number
  statusMessage: string
  headers: Record<string, string | string[]>
  body: Buffer
}

export interface Asked {
  method: string
  /** Path and query. */
  url: string
  headers: IncomingHttpHeaders
}

export interface ProxyRules {
  /** Rewrites the request before it is sent on. */
  request?(asked: Asked): Asked
  /** Rewrites the whole answer (buffered). */
  answer?(asked: Asked, answer: Answer): Answer | Promise<Answer>
}

/** An HTTP proxy on 127.0.0.1 in front of `target`, applying `rules`; WebSocket upgrades are piped (after `request`). */
export async function proxy(target: string, rules: ProxyRules): Promise<Running> {
  const to = new URL(target)
  const server = createServer((req, res) => {
    const asked = rules.request?.(askedOf(req)) ?? askedOf(req)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const upstream = httpRequest({ host: to.hostname, port: to.port, method: asked.method, path: asked.url, headers: asked.headers }, (up) => {
        const body: Buffer[] = []
        up.on('data', (c: Buffer) => body.push(c))
        up.on('end', async () => {
          const headers: Record<string, string | string[]> = {}
          for (const [k, v] of Object.entries(up.headers)) if (v !== undefined) headers[k] = v
          let answer: Answer = { status: up.statusCode ?? 502, statusMessage: up.statusMessage ?? '', headers, body: Buffer.concat(body) }
          if (rules.answer) answer = await rules.answer(asked, answer)
          delete answer.headers['transfer-encoding']
          delete answer.headers.connection
          delete answer.headers['keep-alive']
          if (answer.status !== 204 && answer.status !== 304) answer.headers['content-length'] = String(answer.body.length)
          else delete answer.headers['content-length']
          res.writeHead(answer.status, answer.statusMessage, answer.headers)
          res.end(asked.method === 'HEAD' ? undefined : answer.body)
        })
        up.on('error', () => res.destroy())
      })
      upstream.on('error', () => res.destroy())
      upstream.end(Buffer.concat(chunks))
    })
  })
  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const asked = rules.request?.(askedOf(req)) ?? askedOf(req)
    const upstream = connect(Number(to.port), to.hostname, () => {
      const lines = [`${asked.method} ${asked.url} HTTP/1.1`]
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`)
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
      upstream.write(head)
      socket.pipe(upstream).pipe(socket)
    })
    upstream.on('error', () => socket.destroy())
    socket.on('error', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const askedOf = (req: IncomingMessage): Asked => ({ method: req.method ?? 'GET', url: req.url ?? '/', headers: { ...req.headers } })

/** A proxy rule on JSON answers of paths matching `path`: `edit` gets the parsed body and returns the new one. */
export function editJson(path: RegExp, edit: (body: unknown, answer: Answer, asked: Asked) => unknown): ProxyRules['answer'] {
  return (asked, answer) => {
    if (!path.test(asked.url) || !String(answer.headers['content-type'] ?? '').includes('json')) return answer
    let body: unknown
    try {
      body = JSON.parse(answer.body.toString('utf8'))
    } catch {
      return answer
    }
    return { ...answer, body: Buffer.from(JSON.stringify(edit(body, answer, asked))) }
  }
}

/** A proxy over a freshly started service of its own (closed with it). */
export async function proxiedService(rules: ProxyRules, options: Parameters<typeof service>[0] = {}): Promise<Running> {
  const svc = await service(options)
  const p = await proxy(svc.url, rules)
  return { url: p.url, close: async () => (await p.close(), await svc.close()) }
}

/** A stable seed per mutant (its runs never share names: the nonces differ). */
export function seedOf(id: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193)
  return (h >>> 1) % 2 ** 30
}

/** Runs conform against a mutant (started from `bases`) and stops it. */
export async function judgeMutant(mutant: Mutant, bases: Bases): Promise<SuiteReport> {
  const running = await mutant.start(bases)
  try {
    return await runSuite({
      baseUrl: running.url,
      apiKey: DEMO_SECRETS.registered,
      proKey: DEMO_SECRETS.pro,
      domains: ['example.com', 'notexample.com'],
      ips: ['2001:db8:cd::1'],
      rate: 'auto',
      seed: seedOf(mutant.id),
      maxExamples: 5,
      checks: mutant.checks,
      ...(mutant.run === 'writes' ? { adminToken: DEMO_SECRETS.admin, allowWrites: true, hookReceiver: true, hookWaitMs: 4000 } : {}),
      ...mutant.options,
    })
  } finally {
    await running.close()
  }
}

/** The checks that failed (or could not run), sorted. */
export const failing = (report: SuiteReport) => report.results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => r.id).sort()

/** Why a report does not show the mutant killed as it should be, or undefined when it is. */
export function survived(mutant: Mutant, report: SuiteReport): string | undefined {
  const got = failing(report)
  const want = [...mutant.killedBy].sort()
  if (got.length === 0) return `${mutant.id} survived: no check failed (it breaks: ${mutant.breaks})`
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    const details = report.results.filter((r) => r.status !== 'passed').map((r) => `  ${r.id} ${r.status}: ${r.message}`)
    return `${mutant.id}: killed by ${got.join(', ')}; expected ${want.join(', ')}\n${details.join('\n')}`
  }
  return undefined
}
