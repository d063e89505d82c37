/**
 * The one run every hook check judges (shared through `ctx.memo`): start a receiver, watch a
 * domain and a network, register the planned hooks on the receiver with the pro key, ingest
 * the planned events through `POST /admin/events` with the admin token, wait (bounded) for
 * what must arrive, look the delivered events up, then remove the hooks and resources and
 * delete the run's events (`DELETE /admin/events?tag=…`, where the server offers it). It writes
 * only with `allowWrites` (`--allow-writes`), and says what it left behind.
 */
import { HookApiError, type HookClient } from '../../client/index.js'
import type { SuiteContext } from '../context.js'
import { exclusion, type Exclusion, type HookPlan, hookPlan, type PlannedEvent, type PlannedHook, runHookUrl, runNonce } from './hook-plan.js'
import { type Arrival, type HookReceiver, startHookReceiver } from './hook-receiver.js'
import { domainPath, hostPath, withinDomain } from './lib.js'

/** How long the suite waits for the expected deliveries by default (they usually take well under a second). */
export const HOOK_WAIT_MS = 20_000
/** How long it keeps listening once they are all in, for deliveries that must not come. */
export const HOOK_GRACE_MS = 1_000

/** One arrival, with the planned event it carries (undefined when its body is none of them). */
export interface Delivered {
  arrival: Arrival
  event: PlannedEvent | undefined
}

export interface HookRun {
  hook: PlannedHook
  /** The hook's secret: the one the suite gave, or the one the server generated. */
  secret: string
  /** Planned events it must receive, in ingest order. */
  expected: PlannedEvent[]
  /** What arrived on its path, in arrival order. */
  delivered: Delivered[]
}

export type Scenario =
  | { ok: false; reason: string }
  | {
      ok: true
      plan: HookPlan
      runs: HookRun[]
      /** Whether every expected delivery arrived within the wait. */
      complete: boolean
      /** The delivered events' text as the lookups return them, by fingerprint (only events the lookups held). */
      lookedUp: Map<string, { text: string; path: string }>
    }

/** Why `--stateless` skips every hook check. */
export const HOOKS_NEED_STATE = 'hooks must be stored, events ingested and matched, and deliveries sent to the receiver'

/** Why the hook checks are skipped without `--allow-writes`. */
export const HOOKS_NEED_WRITES =
  'needs --allow-writes (with --pro-key, --admin-token and --hook-receiver): the hook checks write to the server: ' +
  '3 watched resources and 5 hooks (removed afterwards) and 16 test events tagged l9kit-conform:RUN (deleted afterwards where the server offers DELETE /admin/events?tag=)'

/** How long this run waits for the expected deliveries. */
export const hookWaitMs = (ctx: SuiteContext) => ctx.options.hookWaitMs ?? HOOK_WAIT_MS

/** The shared run (started by the first hook check). */
export const hookScenario = (ctx: SuiteContext): Promise<Scenario> => ctx.memo('hook-scenario', () => runScenario(ctx))

/** Why a delivery must not have come to this hook, or undefined when it is expected (or not a planned event). */
export const excluded = (plan: HookPlan, run: HookRun, d: Delivered): Exclusion | undefined => (d.event ? exclusion(plan, run.hook, d.event) : undefined)

async function runScenario(ctx: SuiteContext): Promise<Scenario> {
  const { proKey, adminToken, hookReceiver, allowWrites } = ctx.options
  if (!allowWrites) return { ok: false, reason: HOOKS_NEED_WRITES }
  if (!hookReceiver || !proKey || !adminToken) return { ok: false, reason: 'needs --pro-key, --admin-token and --hook-receiver' }
  const client = ctx.hookClient(proKey)
  const plan = hookPlan(ctx.seedFor('hook-scenario'), runNonce(ctx.seed))
  let base = ''
  const receiver = await startHookReceiver((a) => ctx.recorder?.incoming(a.method, base + a.path, a.headers, a.body, 204))
  base = receiver.base
  const cleanup: (() => Promise<unknown>)[] = []
  try {
    const offered = await register(client, plan, receiver, cleanup)
    if (typeof offered === 'string') return { ok: false, reason: offered }
    // From the first event on, the events are the server's until deleted: say what became of them.
    cleanup.unshift(() => deleteEvents(ctx, client, adminToken, plan))
    await ingest(client, adminToken, plan)
    const runs = offered
    const byFingerprint = new Map(plan.events.map((e) => [e.event.event_fingerprint, e]))
    const collect = () => {
      for (const run of runs) run.delivered = receiver.arrivals.filter((a) => a.path === `/${run.hook.name}`).map((arrival) => ({ arrival, event: byFingerprint.get(fingerprintOf(arrival.body)) }))
    }
    const allIn = () => {
      collect()
      return runs.every((run) => run.expected.every((e) => run.delivered.some((d) => d.event === e)))
    }
    const complete = await receiver.until(allIn, hookWaitMs(ctx), ctx.options.signal)
    if (complete) await receiver.until(() => false, HOOK_GRACE_MS, ctx.options.signal)
    collect()
    return { ok: true, plan, runs, complete, lookedUp: await lookUp(ctx, plan, runs) }
  } finally {
    // Best effort: a server that cannot delete still got judged.
    for (const undo of cleanup.reverse()) await undo().catch(() => undefined)
    await receiver.close()
  }
}

/**
 * Reads what the key already watches (its events reach the run's hooks too), watches the plan's
 * resources and registers its hooks; a string when the server has no hook API.
 */
async function register(client: HookClient, plan: HookPlan, receiver: HookReceiver, cleanup: (() => Promise<unknown>)[]): Promise<HookRun[] | string> {
  try {
    plan.existing = (await client.resources()).map((r) => ({ type: r.type, value: r.value }))
  } catch (error) {
    if (error instanceof HookApiError && [404, 405, 501].includes(error.status ?? 0)) {
      return `the server does not offer the hook API (GET /api/resources answered ${error.status})`
    }
    throw error
  }
  for (const resource of plan.resources) {
    const created = await client.addResource(resource)
    cleanup.push(() => client.removeResource(created.id))
  }
  const runs: HookRun[] = []
  for (const hook of plan.hooks) {
    const created = await client.addHook({ ...hook.request, url: runHookUrl(receiver.base, hook, plan.run) })
    cleanup.push(() => client.removeHook(created.id))
    const expected = plan.events.filter((e) => exclusion(plan, hook, e) === undefined)
    runs.push({ hook, secret: hook.request.secret ?? created.secret, expected, delivered: [] })
  }
  return runs
}

async function ingest(client: HookClient, adminToken: string, plan: HookPlan): Promise<void> {
  const body = plan.events.map((e) => `${JSON.stringify(e.event)}\n`).join('')
  let answer
  try {
    answer = await client.ingest(adminToken, body)
  } catch (error) {
    if (error instanceof HookApiError) throw new Error(`POST /admin/events refused the events (${error.status} ${error.title}: ${error.description}); is --admin-token right?`)
    throw error
  }
  if (answer.rejected.length > 0) {
    const first = answer.rejected[0]!
    throw new Error(`POST /admin/events rejected generated event ${first.line} of ${plan.events.length}: ${JSON.stringify(first.errors).slice(0, 200)}`)
  }
  if (answer.accepted !== plan.events.length) {
    throw new Error(`POST /admin/events accepted ${answer.accepted} of ${plan.events.length} new events (${answer.duplicates} counted as duplicates)`)
  }
}

/**
 * Deletes the run's events (`DELETE /admin/events?tag=l9kit-conform:RUN`) and notes the outcome:
 * how many went, or, on a server without the route, what stays there.
 */
async function deleteEvents(ctx: SuiteContext, client: HookClient, adminToken: string, plan: HookPlan): Promise<void> {
  const left =
    `the ${plan.events.length} test events tagged ${plan.tag} stay on the server ` +
    `(hosts under ${plan.run}-*.test, addresses in 192.0.2.0/24, 203.0.113.0/24 and 2001:db8::/32)`
  try {
    const deleted = await client.deleteTagged(adminToken, plan.tag)
    ctx.notes.push(`wrote ${plan.events.length} test events tagged ${plan.tag}; deleted ${deleted} with DELETE /admin/events?tag=${plan.tag}`)
  } catch (error) {
    const why = error instanceof HookApiError ? `DELETE /admin/events?tag= answered ${error.status} ${error.title}` : (error as Error).message
    const note = `${left}: ${why}; delete them with the server's own tools`
    ctx.notes.push(note)
    ctx.leftBehind.push(note)
  }
}

/** The delivered events as the lookups return them: one domain lookup, and host lookups for the rest. */
async function lookUp(ctx: SuiteContext, plan: HookPlan, runs: HookRun[]): Promise<Map<string, { text: string; path: string }>> {
  const wanted = new Set<PlannedEvent>()
  for (const run of runs) for (const d of run.delivered) if (d.event && run.expected.includes(d.event)) wanted.add(d.event)
  const paths = new Set<string>()
  for (const e of wanted) paths.add(withinDomain(e.event.host, plan.domain) ? domainPath(plan.domain) : hostPath(e.event.ip))
  const found = new Map<string, { text: string; path: string }>()
  for (const path of paths) {
    const response = await ctx.get(path, 'pro')
    if (response.status !== 200) continue
    for (const text of eventTexts(response.body)) found.set(fingerprintOf(text), { text, path })
  }
  return found
}

function fingerprintOf(text: string): string {
  try {
    const fp = (JSON.parse(text) as { event_fingerprint?: unknown }).event_fingerprint
    return typeof fp === 'string' ? fp : ''
  } catch {
    return ''
  }
}

/**
 * The exact text of each event object in a lookup answer (`{"Services":[{…}],"Leaks":[{…}]}`):
 * objects two levels down, cut out of the body as they were sent, so they can be compared
 * byte for byte with a delivery.
 */
export function eventTexts(body: string): string[] {
  const out: string[] = []
  let depth = 0
  let start = -1
  let inString = false
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    else if (c === '{' || c === '[') {
      if (depth === 2 && c === '{') start = i
      depth++
    } else if (c === '}' || c === ']') {
      depth--
      if (depth === 2 && c === '}' && start >= 0) {
        out.push(body.slice(start, i + 1))
        start = -1
      }
    }
  }
  return out
}
