/**
 * The service's configuration: keys and their plans, the admin token, plan limits, the
 * ingest body limit. Read from a JSON file (`l9kit serve --config FILE`, format in
 * docs/service.md) and checked member by member; every problem is reported as
 * `FILE: /pointer: what is wrong`, and a key's value never appears in a message.
 */
import { readFile } from 'node:fs/promises'
import { type ApiKey, DEFAULT_PLANS, digest, KEY_PLANS, type KeyPlan, type Plan, type PlanName, PLAN_NAMES } from './auth/index.js'
import { defaultHookConfig, type HookConfig, readHookConfig } from './hooks/config.js'
import { DEFAULT_LIVE_BUFFER_BYTES, readLiveBufferBytes } from './live/config.js'
import { readPluginDescriptions } from './plugins/config.js'
import { DEFAULT_LOOKUP_CACHE_BYTES, readLookupCacheBytes } from './store/lookup-cache-config.js'
import { DEFAULT_SEARCH_PAGE_SIZE, readSearchPageSize, readSearchPages } from './store/search-config.js'
import { DEFAULT_LIMITS, LIMIT_NAMES, PLAN_BUDGET_NAMES, readLimits, readPlanBudgets, type ServiceLimits } from './ratelimit/budgets.js'
import { fallbackPriority, SERVICE_WORKER_KIND, isWorkerKind, type PrepareWorkerKind, type WorkerPriority } from './ingest/worker-priority.js'
import { readPriority, unknownMembers } from './config-members.js'
import { isObject, type Problem, readInteger, show } from './config-reading.js'

/** Hook members (docs/hooks.md): `hookDelivery`, `allowPrivateHooks`, and `declared` resources and hooks per key. */
export interface ServiceConfig extends HookConfig {
  keys: ApiKey[]
  /** SHA-256 of the admin token; null = ingest over HTTP disabled. */
  adminToken: Buffer | null
  plans: Record<PlanName, Plan>
  /** Largest body POST /admin/events accepts (413 above). */
  maxBodyBytes: number
  /**
   * Priority (Linux) of the threads that prepare a large ingest's documents, so that lookups
   * answered meanwhile get the CPU first: 'idle' (the SCHED_IDLE class, the default), or a
   * niceness 0–19 (0 = the process's own priority). See ingest/worker-priority.ts.
   */
  ingestWorkerPriority: WorkerPriority
  /**
   * What runs those workers for the ingests taken while lookups are answered (POST
   * /admin/events): child processes (the default) or threads of the service's process.
   */
  ingestWorkers: PrepareWorkerKind
  /**
   * Priority (Linux) of the service process's own helper threads (V8's garbage-collection and
   * compiler threads, libuv's pool) when it takes ingests: 'idle' (the default) or a niceness
   * 0–19 (0 = left as they are). Set by `l9kit serve`; see ingest/helper-threads.ts.
   */
  helperThreadPriority: WorkerPriority
  /** Name of the key whose plan and rate limit the web pages use; null = the anonymous plan. */
  webKey: string | null
  /** Descriptions of plugins by name (`plugins`), for /api/plugins. */
  pluginDescriptions: Map<string, string>
  /** Unread bytes a live-stream subscriber may have queued before it is disconnected (`live_buffer_bytes`). */
  liveBufferBytes: number
  /** Events in one page of GET /search (`search_page_size`). */
  searchPageSize: number
  /** Bytes of lookup answers a PostgreSQL store keeps per process (`lookup_cache_bytes`; 0 = none). */
  lookupCacheBytes: number
  /** The service's own bounds (docs/service.md, "Limits"). */ limits: ServiceLimits
  /** `FILE: /pointer: message` lines worth printing that do not stop the service (a short admin token). */
  warnings?: string[]
}

/** An admin token shorter than this is accepted with a warning: it can be guessed. */
export const ADMIN_TOKEN_ADVISED_LENGTH = 16

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024

/** Secrets of the built-in default (printed at start; for local testing only). */
export const DEMO_SECRETS = {
  registered: 'l9kit-demo-registered',
  pro: 'l9kit-demo-pro',
  admin: 'l9kit-demo-admin',
} as const

/** The built-in default: one demo key per plan, the demo admin token, default limits. */
export function defaultConfig(): ServiceConfig {
  const helpers = fallbackPriority()
  return {
    keys: [
      { name: 'demo-registered', plan: 'registered', sha256: digest(DEMO_SECRETS.registered) },
      { name: 'demo-pro', plan: 'pro', sha256: digest(DEMO_SECRETS.pro) },
    ],
    adminToken: digest(DEMO_SECRETS.admin),
    plans: clonePlans(DEFAULT_PLANS),
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    ingestWorkerPriority: helpers.priority,
    ingestWorkers: SERVICE_WORKER_KIND,
    helperThreadPriority: helpers.priority,
    webKey: null,
    pluginDescriptions: new Map(),
    liveBufferBytes: DEFAULT_LIVE_BUFFER_BYTES,
    searchPageSize: DEFAULT_SEARCH_PAGE_SIZE,
    lookupCacheBytes: DEFAULT_LOOKUP_CACHE_BYTES,
    limits: { ...DEFAULT_LIMITS },
    // The demo is for local use: hooks may point at a receiver on this machine.
    ...defaultHookConfig(),
    allowPrivateHooks: true,
    ...(helpers.problem === undefined ? {} : { warnings: [helpers.problem] }),
  }
}

/** A configuration file that cannot be used; `problems` holds one `FILE: /pointer: message` each. */
export class ConfigError extends Error {
  override name = 'ConfigError'
  constructor(readonly problems: string[]) {
    super(problems.join('\n'))
  }
}

/** Reads and checks a configuration file. */
export async function loadConfig(path: string): Promise<ServiceConfig> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable'
    throw new ConfigError([`${path}: cannot read the file (${code === 'ENOENT' ? 'no such file' : code})`])
  }
  return parseConfig(text, path)
}

const TOP = ['keys', 'admin_token', 'admin_token_sha256', 'plans', 'max_body_bytes', 'ingest_worker_nice', 'ingest_workers', 'helper_thread_nice', 'web_key', 'hook_delivery', 'allow_private_hooks', 'plugins', 'live_buffer_bytes', 'search_page_size', 'lookup_cache_bytes', ...LIMIT_NAMES]
const KEY_MEMBERS = ['name', 'key', 'key_sha256', 'plan', 'resources', 'hooks'] as const
const PLAN_MEMBERS = ['subdomains', 'rate', 'burst', 'resources', 'hooks', 'live', 'bulk', 'search_pages', ...PLAN_BUDGET_NAMES]
const SECRET = /^[\x21-\x7e]{8,256}$/
const SHA256_HEX = /^[0-9a-fA-F]{64}$/

/** Checks configuration text; `file` names it in messages. */
export function parseConfig(text: string, file: string): ServiceConfig {
  const problems: string[] = []
  const problem = (pointer: string, message: string) => problems.push(`${file}: ${pointer || '(document)'}: ${message}`)
  let doc: unknown
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new ConfigError([`${file}: not valid JSON: ${(error as Error).message}`])
  }
  if (!isObject(doc)) throw new ConfigError([`${file}: (document): must be a JSON object`])
  unknownMembers(doc, TOP, '', problem)

  const helpers = fallbackPriority()
  const config: ServiceConfig = { keys: [], adminToken: null, plans: clonePlans(DEFAULT_PLANS), maxBodyBytes: DEFAULT_MAX_BODY_BYTES, ingestWorkerPriority: helpers.priority, ingestWorkers: SERVICE_WORKER_KIND, helperThreadPriority: helpers.priority, webKey: null, pluginDescriptions: new Map(), liveBufferBytes: DEFAULT_LIVE_BUFFER_BYTES, searchPageSize: DEFAULT_SEARCH_PAGE_SIZE, lookupCacheBytes: DEFAULT_LOOKUP_CACHE_BYTES, limits: readLimits(doc, problem), ...defaultHookConfig() }
  config.keys = readKeys(doc.keys, problem)
  Object.assign(config, readHookConfig(doc, problem))
  config.adminToken = readSecret(doc, 'admin_token', '', problem, false)
  if (config.adminToken && typeof doc.admin_token === 'string' && doc.admin_token.length < ADMIN_TOKEN_ADVISED_LENGTH) {
    const length = `${ADMIN_TOKEN_ADVISED_LENGTH} or more random characters`
    config.warnings = [`${file}: /admin_token: shorter than ${ADMIN_TOKEN_ADVISED_LENGTH} characters, easy to guess (value not shown); use ${length}`]
  }
  if (helpers.problem !== undefined) (config.warnings ??= []).push(helpers.problem)
  if (doc.plans !== undefined) readPlans(doc.plans, config.plans, problem)
  config.maxBodyBytes = readInteger(doc, 'max_body_bytes', '', 1, Number.MAX_SAFE_INTEGER, 'a positive integer', problem) ?? config.maxBodyBytes
  config.ingestWorkerPriority = readPriority(doc, 'ingest_worker_nice', problem) ?? config.ingestWorkerPriority
  if (doc.ingest_workers !== undefined) {
    if (!isWorkerKind(doc.ingest_workers)) problem('/ingest_workers', `must be "process" or "thread" (got ${show(doc.ingest_workers)})`)
    else config.ingestWorkers = doc.ingest_workers
  }
  config.helperThreadPriority = readPriority(doc, 'helper_thread_nice', problem) ?? config.helperThreadPriority
  if (doc.web_key !== undefined && doc.web_key !== null) {
    // A key's name, not its secret: pages are anonymous to the browser, the plan is chosen here.
    if (typeof doc.web_key !== 'string' || !config.keys.some((k) => k.name === doc.web_key)) {
      problem('/web_key', `must name a key in /keys (got ${show(doc.web_key)}; names: ${config.keys.map((k) => k.name).join(', ') || 'none'})`)
    } else config.webKey = doc.web_key
  }
  config.pluginDescriptions = readPluginDescriptions(doc, problem)
  config.liveBufferBytes = readLiveBufferBytes(doc, problem) ?? config.liveBufferBytes
  config.searchPageSize = readSearchPageSize(doc, problem) ?? config.searchPageSize
  config.lookupCacheBytes = readLookupCacheBytes(doc, problem) ?? config.lookupCacheBytes
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}


function readKeys(value: unknown, problem: Problem): ApiKey[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) {
    problem('/keys', `must be an array of {name, key | key_sha256, plan} (got ${show(value)})`)
    return []
  }
  const keys: ApiKey[] = []
  const names = new Map<string, string>()
  const digests = new Map<string, string>()
  value.forEach((entry: unknown, i) => {
    const at = `/keys/${i}`
    if (!isObject(entry)) return problem(at, `must be an object {name, key | key_sha256, plan} (got ${show(entry)})`)
    unknownMembers(entry, KEY_MEMBERS, at, problem)
    const name = entry.name
    if (typeof name !== 'string' || name.length === 0) problem(`${at}/name`, `must be a non-empty string naming the key (got ${show(name)})`)
    else if (names.has(name)) problem(`${at}/name`, `'${name}' is already the name of ${names.get(name)}`)
    else names.set(name, at)
    const plan = entry.plan
    if (typeof plan !== 'string' || !(KEY_PLANS as readonly string[]).includes(plan)) {
      problem(`${at}/plan`, `must be one of ${KEY_PLANS.join(', ')} (got ${show(plan)})`)
    }
    const sha256 = readSecret(entry, 'key', at, problem, true)
    if (sha256) {
      const hex = sha256.toString('hex')
      if (digests.has(hex)) problem(at, `same key as ${digests.get(hex)}`)
      else digests.set(hex, at)
    }
    if (typeof name === 'string' && name !== '' && sha256 && (KEY_PLANS as readonly string[]).includes(plan as string)) {
      keys.push({ name, plan: plan as KeyPlan, sha256 })
    }
  })
  return keys
}

/** `member` (the secret, never echoed) or `member_sha256` (its digest in hex), exactly one of them. */
function readSecret(obj: Record<string, unknown>, member: string, at: string, problem: Problem, required: boolean): Buffer | null {
  const plain = obj[member]
  const hashed = obj[`${member}_sha256`]
  if (plain !== undefined && hashed !== undefined) {
    problem(at === '' ? `/${member}` : at, `give ${member} or ${member}_sha256, not both`)
    return null
  }
  if (plain !== undefined) {
    if (typeof plain !== 'string' || !SECRET.test(plain)) {
      problem(`${at}/${member}`, 'must be a string of 8 to 256 printable ASCII characters without spaces (value not shown)')
      return null
    }
    return digest(plain)
  }
  if (hashed !== undefined) {
    if (typeof hashed !== 'string' || !SHA256_HEX.test(hashed)) {
      problem(`${at}/${member}_sha256`, 'must be 64 hexadecimal characters (the SHA-256 of the secret)')
      return null
    }
    return Buffer.from(hashed, 'hex')
  }
  if (required) problem(at, `needs ${member} or ${member}_sha256`)
  return null
}

function readPlans(value: unknown, plans: Record<PlanName, Plan>, problem: Problem): void {
  if (!isObject(value)) return void problem('/plans', `must be an object with members ${PLAN_NAMES.join(', ')} (got ${show(value)})`)
  unknownMembers(value, PLAN_NAMES, '/plans', problem)
  for (const name of PLAN_NAMES) {
    const spec = value[name]
    if (spec === undefined) continue
    const at = `/plans/${name}`
    if (!isObject(spec)) {
      problem(at, `must be an object {${PLAN_MEMBERS.join(', ')}} (got ${show(spec)})`)
      continue
    }
    unknownMembers(spec, PLAN_MEMBERS, at, problem)
    const plan = plans[name]
    for (const [member, what] of [['live', 'the live stream'], ['bulk', 'the bulk export']] as const) {
      if (spec[member] === undefined) continue
      if (typeof spec[member] === 'boolean') plan[member] = spec[member]
      else problem(`${at}/${member}`, `must be true or false: whether keys of this plan may use ${what} (got ${show(spec[member])})`)
    }
    readSearchPages(spec, plan, at, problem)
    readPlanBudgets(spec, plan, at, problem)
    if (spec.subdomains !== undefined) {
      if (spec.subdomains === null) plan.subdomains = null
      else if (Number.isSafeInteger(spec.subdomains) && (spec.subdomains as number) >= 0) plan.subdomains = spec.subdomains as number
      else problem(`${at}/subdomains`, `must be an integer ≥ 0, or null for no cap (got ${show(spec.subdomains)})`)
    }
    for (const cap of ['resources', 'hooks'] as const) {
      const v = spec[cap]
      if (v === undefined) continue
      if (v === null) plan[cap] = null
      else if (Number.isSafeInteger(v) && (v as number) >= 0) plan[cap] = v as number
      else problem(`${at}/${cap}`, `must be an integer ≥ 0 (the most ${cap === 'hooks' ? 'hooks' : 'watched resources'} one key may have), or null for no cap (got ${show(v)})`)
    }
    if (spec.rate === null) {
      plan.rate = null
      if (spec.burst !== undefined) problem(`${at}/burst`, 'has no meaning when rate is null (not limited)')
      continue
    }
    const rule = plan.rate ?? { rate: 1, burst: 2 }
    if (spec.rate !== undefined) {
      if (typeof spec.rate === 'number' && Number.isFinite(spec.rate) && spec.rate > 0) rule.rate = spec.rate
      else problem(`${at}/rate`, `must be a number of requests per second > 0, or null for no limit (got ${show(spec.rate)})`)
    }
    if (spec.burst !== undefined) {
      if (Number.isSafeInteger(spec.burst) && (spec.burst as number) >= 1) rule.burst = spec.burst as number
      else problem(`${at}/burst`, `must be an integer ≥ 1 (got ${show(spec.burst)})`)
    }
    plan.rate = rule
  }
}

function clonePlans(plans: Readonly<Record<PlanName, Plan>>): Record<PlanName, Plan> {
  const out = {} as Record<PlanName, Plan>
  for (const name of PLAN_NAMES) out[name] = { ...plans[name], rate: plans[name].rate ? { ...plans[name].rate! } : null }
  return out
}
