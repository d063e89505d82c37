/**
 * What a write makes readable, and a deletion takes away, at once, on every route that shows it
 * (Schemathesis' "use after free" and "ensure resource availability"), from one scenario shared
 * by two checks:
 * - created-readable: a watched resource is in GET /api/resources (every page, following `link`)
 *   at once; a hook (pro key) is answered by GET /api/hooks/:id, listed by GET /api/hooks and has
 *   GET /api/hooks/:id/deliveries; an ingested event (admin token) is in GET /host/:ip, GET
 *   /domain/:domain and a search for its tag;
 * - deleted-gone: once deleted, the hook is 404 on GET, DELETE, enable, test, retry-failed and
 *   deliveries, and gone from the list; the resource gone from its list and 404 to a second
 *   DELETE; the event (DELETE /admin/events?tag=) gone from both lookups and the search.
 * Writes one resource, one hook (on a `.invalid` URL that never resolves, naming the run) and
 * one event tagged with the run's tag, all deleted by the scenario itself.
 */
import { searchPath, segment } from '../../client/index.js'
import { emptyEvent } from '../../schema/index.js'
import { formatTime } from '../../time/index.js'
import { type Check, fail, pass, type Problem, skip } from '../check.js'
import type { Identity, SuiteContext } from '../context.js'
import { RUN_PARAMETER, RUN_TAG_PREFIX, runNonce } from './hook-plan.js'
import { domainPath, hostPath, lookupLists, problemAt, statusLine } from './lib.js'

export const LIFECYCLE_NEEDS_WRITES =
  'needs --allow-writes (with --api-key or --pro-key, and --admin-token for the event): the check creates and deletes one watched resource, one hook and one test event tagged l9kit-conform:RUN'

const EVENT_IP = '192.0.2.223'

interface Outcome {
  /** The first thing not readable after creation, or undefined. */
  created?: Problem
  /** The first thing still there after deletion, or undefined. */
  deleted?: Problem
  judged: string[]
}

type Scenario = { ok: false; reason: string } | ({ ok: true } & Outcome)

const scenario = (ctx: SuiteContext): Promise<Scenario> => ctx.memo('lifecycle', () => run(ctx))

async function run(ctx: SuiteContext): Promise<Scenario> {
  const { allowWrites, proKey, apiKey, adminToken } = ctx.options
  if (!allowWrites) return { ok: false, reason: LIFECYCLE_NEEDS_WRITES }
  const who: Identity | undefined = proKey !== undefined ? 'pro' : apiKey !== undefined ? 'key' : undefined
  if (who === undefined && adminToken === undefined) return { ok: false, reason: 'needs --api-key or --pro-key (a watched resource), or --admin-token (an event)' }
  const nonce = runNonce(ctx.seedFor('lifecycle'))
  const out: Outcome = { judged: [] }
  const note = (slot: 'created' | 'deleted', p: Problem | undefined) => {
    if (p && out[slot] === undefined) out[slot] = p
  }
  if (who !== undefined) {
    const absent = await resourceRound(ctx, who, nonce, note)
    if (absent !== undefined) return { ok: false, reason: absent }
    out.judged.push('a watched resource')
  }
  if (proKey !== undefined && (await hookRound(ctx, nonce, note))) out.judged.push('a hook')
  if (adminToken !== undefined) {
    await eventRound(ctx, nonce, note)
    out.judged.push('an event')
  }
  return { ok: true, ...out }
}

type Note = (slot: 'created' | 'deleted', p: Problem | undefined) => void

/** Every id GET `list` shows, following `link: <…>; rel="next"` (at most 50 pages). */
async function listed(ctx: SuiteContext, list: string, who: Identity): Promise<{ ids: Set<string>; last: Awaited<ReturnType<SuiteContext['request']>> }> {
  const ids = new Set<string>()
  let path: string | undefined = `${list}?limit=1000`
  let last = await ctx.request('GET', path, who)
  for (let pages = 0; pages < 50; pages++) {
    const body = ctx.json(last)
    if (last.status !== 200 || !Array.isArray(body)) break
    for (const item of body) if (typeof (item as { id?: unknown })?.id === 'string') ids.add((item as { id: string }).id)
    const next = /<([^>]+)>;\s*rel="next"/.exec(last.headers.link ?? '')?.[1]
    if (next === undefined) break
    path = next.startsWith('http') ? new URL(next).pathname + new URL(next).search : next
    last = await ctx.request('GET', path, who)
  }
  return { ids, last }
}

async function resourceRound(ctx: SuiteContext, who: Identity, nonce: string, note: Note): Promise<string | undefined> {
  // The list before: a server may only show a change to a reader that read before it.
  await listed(ctx, '/api/resources', who)
  const created = await ctx.request('POST', '/api/resources', who, { json: { type: 'domain', value: `${nonce}-life.test` } })
  if ([404, 405, 501].includes(created.status)) return `the server has no watched resources (POST /api/resources answered ${created.status})`
  if (created.status !== 201) return `POST /api/resources answered ${statusLine(created)}, not 201: nothing to judge`
  const id = String((ctx.json(created) as { id?: unknown })?.id ?? '')
  const before = await listed(ctx, '/api/resources', who)
  note('created', before.ids.has(id) ? undefined : problemAt(before.last, `the resource ${id} just created (201) is not in GET /api/resources`))
  const removed = await ctx.request('DELETE', `/api/resources/${segment(id)}`, who)
  note('deleted', removed.status >= 200 && removed.status < 300 ? undefined : problemAt(removed, `DELETE /api/resources/${id} answered ${statusLine(removed)}`))
  const after = await listed(ctx, '/api/resources', who)
  note('deleted', after.ids.has(id) ? problemAt(after.last, `the resource ${id} deleted (${removed.status}) is still in GET /api/resources`) : undefined)
  const again = await ctx.request('DELETE', `/api/resources/${segment(id)}`, who)
  note('deleted', again.status === 404 ? undefined : problemAt(again, `a second DELETE /api/resources/${id} answered ${statusLine(again)}, not 404`))
  return undefined
}

/** False when the server would not create the hook (nothing judged). */
async function hookRound(ctx: SuiteContext, nonce: string, note: Note): Promise<boolean> {
  // A hook nothing reaches: a name under .invalid (RFC 2606) never resolves, and it names the run.
  const url = `https://${nonce}.l9kit-conform.invalid/hook?${RUN_PARAMETER}=${nonce}`
  const created = await ctx.request('POST', '/api/hooks', 'pro', { json: { url, event_types: ['leak'], min_severity: 'critical' } })
  // A server may refuse a URL it cannot resolve (400): then there is no hook to judge.
  if (created.status >= 400 && created.status < 500) return false
  if (created.status !== 201) {
    note('created', problemAt(created, `POST /api/hooks answered ${statusLine(created)}, not 201`))
    return true
  }
  const id = String((ctx.json(created) as { id?: unknown })?.id ?? '')
  const hook = `/api/hooks/${segment(id)}`
  for (const path of [hook, `${hook}/deliveries`]) {
    const r = await ctx.request('GET', path, 'pro')
    note('created', r.status === 200 ? undefined : problemAt(r, `GET ${path} of the hook just created answered ${statusLine(r)}, not 200`))
  }
  const before = await listed(ctx, '/api/hooks', 'pro')
  note('created', before.ids.has(id) ? undefined : problemAt(before.last, `the hook ${id} just created is not in GET /api/hooks`))
  const removed = await ctx.request('DELETE', hook, 'pro')
  note('deleted', removed.status >= 200 && removed.status < 300 ? undefined : problemAt(removed, `DELETE ${hook} answered ${statusLine(removed)}`))
  for (const [method, path] of [['GET', hook], ['GET', `${hook}/deliveries`], ['POST', `${hook}/enable`], ['POST', `${hook}/test`], ['POST', `${hook}/retry-failed`], ['DELETE', hook]] as const) {
    const r = await ctx.request(method, path, 'pro')
    note('deleted', r.status === 404 ? undefined : problemAt(r, `${method} ${path} of the deleted hook answered ${statusLine(r)}, not 404`))
  }
  const after = await listed(ctx, '/api/hooks', 'pro')
  note('deleted', after.ids.has(id) ? problemAt(after.last, `the deleted hook ${id} is still in GET /api/hooks`) : undefined)
  return true
}

async function eventRound(ctx: SuiteContext, nonce: string, note: Note): Promise<void> {
  const tag = `${RUN_TAG_PREFIX}${nonce}`
  const domain = `${nonce}-life.test`
  const event = emptyEvent()
  event.event_type = 'leak'
  event.event_source = 'l9kit-conform'
  event.ip = EVENT_IP
  event.host = `www.${domain}`
  event.port = '9443'
  event.summary = `${nonce} lifecycle`
  event.time = formatTime(BigInt(Date.now()) * 1_000_000n)
  event.leak.stage = 'open'
  event.leak.severity = 'info'
  event.tags = [tag]
  const ingested = await ctx.request('POST', '/admin/events', 'admin', { text: `${JSON.stringify(event)}\n`, headers: { 'content-type': 'application/x-ndjson' } })
  if (ingested.status !== 200) return note('created', problemAt(ingested, `POST /admin/events answered ${statusLine(ingested)}, not 200`))
  // Each read is sent anew (ctx.request, not the shared cache): before and after differ.
  const holds = async (path: string) => {
    const r = await ctx.request('GET', path, 'key')
    const lists = path.startsWith('/search') ? undefined : lookupLists(ctx, r)
    const body = ctx.json(r)
    const events = lists ? [...lists.Services, ...lists.Leaks] : Array.isArray(body) ? (body as Record<string, unknown>[]) : []
    return { r, found: events.some((e) => e.summary === event.summary) }
  }
  const paths = [hostPath(EVENT_IP), domainPath(domain), searchPath(`+tags:"${tag}"`, 'leak', 0)]
  for (const path of paths) {
    const { r, found } = await holds(path)
    // A refused search (no route, or not for this key) says nothing.
    if (path.startsWith('/search') && r.status !== 200) continue
    note('created', found ? undefined : problemAt(r, `GET ${path} does not show the event ingested just before (summary ${JSON.stringify(event.summary)})`))
  }
  const deleted = await ctx.request('DELETE', `/admin/events?tag=${encodeURIComponent(tag)}`, 'admin')
  if ([404, 405, 501].includes(deleted.status)) {
    ctx.notes.push(`created-readable wrote 1 test event tagged ${tag} (${EVENT_IP}); it stays on the server: DELETE /admin/events?tag= answered ${deleted.status}`)
    return
  }
  ctx.notes.push(`created-readable wrote 1 test event tagged ${tag}; DELETE /admin/events?tag=${tag} answered ${deleted.status}`)
  for (const path of paths) {
    const { r, found } = await holds(path)
    note('deleted', found ? problemAt(r, `GET ${path} still shows the event deleted with DELETE /admin/events?tag=${tag} (${deleted.status})`) : undefined)
  }
}

const SPEC = 'docs/hooks.md; docs/service.md (DELETE /admin/events: lookups stop showing the events at once)'

export const createdReadable: Check = {
  id: 'created-readable',
  family: 'lifecycle',
  description: 'A watched resource, a hook and an ingested event are readable at once on every route that shows them (lists, GET by id, lookups, search)',
  spec: SPEC,
  needsState: 'what is created must be stored',
  writes: true,
  async run(ctx) {
    const s = await scenario(ctx)
    if (!s.ok) return skip(s.reason)
    return s.created ? fail(s.created) : pass(s.judged.join(', '))
  },
}

export const deletedGone: Check = {
  id: 'deleted-gone',
  family: 'lifecycle',
  description: 'A deleted hook, watched resource or event is gone at once from every route (404 by id, absent from lists, lookups and search)',
  spec: SPEC,
  needsState: 'what is deleted must have been stored',
  writes: true,
  async run(ctx) {
    const s = await scenario(ctx)
    if (!s.ok) return skip(s.reason)
    return s.deleted ? fail(s.deleted) : pass(s.judged.join(', '))
  },
}
