/**
 * The live stream, judged from one scenario (shared through `ctx.memo`): two subscribers of
 * /ws/leak, one without a filter and one with `q=+tags:"TAG" +port:9201`; once both are open,
 * one POST /admin/events of four events tagged with the run's tag (`l9kit-conform:RUN`, on the
 * documentation address 192.0.2.222): a leak on port 9200, a service on 9201, a leak on 9201,
 * and a last leak on 9201 that both streams must carry. The stream keeps the order events were
 * stored in, so once that last one arrived on a stream, everything before it that stream should
 * carry has come, and anything it should not have would have come too: no grace wait.
 * - live-delivers: each stream gets every event it should (the unfiltered one: the three leaks);
 * - live-scope: /ws/leak carries no event of another type;
 * - live-filter: the filtered stream carries only events its query matches (the engine as oracle).
 * Writes the four events and deletes them afterwards (DELETE /admin/events?tag=, noted). Both
 * subscribe with `l9kit-conform-run=RUN`: the reference service streams a run's test events to
 * that run's subscribers only, as it delivers them to that run's hooks only.
 */
import { ClientError } from '../../client/index.js'
import { liveMessages, liveUrl, type LiveMessage } from '../../client/live.js'
import { matches, parseQuery } from '../../query/index.js'
import { emptyEvent, type Event } from '../../schema/index.js'
import { formatTime } from '../../time/index.js'
import { type Check, fail, pass, skip, type Verdict } from '../check.js'
import type { SuiteContext } from '../context.js'
import { RUN_PARAMETER, RUN_TAG_PREFIX, runNonce } from './hook-plan.js'

/** How long the events may take to arrive once ingested, at least (else --timeout, when longer). */
const WAIT_MS = 10_000

/** Why the checks are skipped without `--allow-writes`. */
export const LIVE_NEEDS_WRITES =
  'needs --allow-writes (with --admin-token): the live checks write 4 test events tagged l9kit-conform:RUN (deleted afterwards where the server offers DELETE /admin/events?tag=)'

const NEEDS_STATE = 'an ingested event must reach the stream'
const SPEC = "LeakIX's API: Operations beyond the three lookups (live stream); docs/service.md: Live stream"

interface Planned {
  event: Event
  /** Whether each stream must carry it: [unfiltered, filtered]. */
  wanted: [boolean, boolean]
}

interface Stream {
  name: string
  query: string | undefined
  got: LiveMessage[]
  /** The last planned event arrived. */
  complete: boolean
  error?: ClientError
}

type Scenario = { ok: false; verdict: Verdict } | { ok: true; nonce: string; planned: Planned[]; streams: [Stream, Stream] }

const scenario = (ctx: SuiteContext): Promise<Scenario> => ctx.memo('live', () => run(ctx))

async function run(ctx: SuiteContext): Promise<Scenario> {
  const { adminToken, allowWrites } = ctx.options
  if (!allowWrites) return { ok: false, verdict: skip(LIVE_NEEDS_WRITES) }
  const key = ctx.options.proKey ?? ctx.options.apiKey
  if (adminToken === undefined) return { ok: false, verdict: skip('needs --admin-token: the live checks ingest the events they wait for') }
  if (key === undefined) return { ok: false, verdict: skip('needs --pro-key (or --api-key) that may subscribe to the live stream') }
  const nonce = runNonce(ctx.seedFor('live-delivers'))
  const tag = `${RUN_TAG_PREFIX}${nonce}`
  const planned = plan(nonce, tag)
  const streams: [Stream, Stream] = [
    { name: '/ws/leak', query: undefined, got: [], complete: false },
    { name: `/ws/leak?q=${FILTER(tag)}`, query: FILTER(tag), got: [], complete: false },
  ]
  const stop = new AbortController()
  // Opening may take a while (a server may start its stream's machinery on the first subscriber).
  const openMs = ctx.options.timeoutMs ?? 15_000
  let timer = setTimeout(() => stop.abort(), openMs)
  const last = planned[planned.length - 1]!.event.summary
  let cleanup: (() => Promise<void>) | undefined
  try {
    const opened = streams.map((s) => follow(ctx, key, s, last, nonce, stop.signal))
    const first = await Promise.all(opened.map((o) => Promise.race([o.open, o.done.then(() => 'ended' as const)])))
    const refused = streams.find((_, i) => first[i] !== 'open')
    if (refused) return { ok: false, verdict: refusal(refused, openMs) }
    clearTimeout(timer)
    timer = setTimeout(() => stop.abort(), Math.max(WAIT_MS, openMs))
    await ctx.hookClient().ingest(adminToken, planned.map((p) => `${JSON.stringify(p.event)}\n`).join(''))
    cleanup = () => deleteEvents(ctx, adminToken, tag)
    await Promise.all(opened.map((o) => o.done))
    return { ok: true, nonce, planned, streams }
  } finally {
    clearTimeout(timer)
    stop.abort()
    await cleanup?.().catch(() => undefined)
  }
}

/** Reads one stream until its last planned event came (or the wait ends); `open` resolves at its 101. */
function follow(ctx: SuiteContext, key: string, stream: Stream, last: string, nonce: string, signal: AbortSignal): { open: Promise<'open'>; done: Promise<void> } {
  let opened: (v: 'open') => void = () => undefined
  const open = new Promise<'open'>((resolve) => (opened = resolve))
  // Named as the run's subscriber: the reference service streams a run's test events to that run's subscribers only.
  const params = { [RUN_PARAMETER]: nonce }
  const url = liveUrl(ctx.options.baseUrl, 'leak', stream.query, params)
  const recorded = ctx.recorder?.socket(url, { 'api-key': key })
  const done = (async () => {
    const messages = liveMessages(ctx.options.baseUrl, key, 'leak', { signal, onOpen: () => opened('open'), params, ...(stream.query === undefined ? {} : { query: stream.query }) })
    try {
      for await (const message of messages) {
        recorded?.messages?.push({ time: Date.now() / 1000, data: message.text })
        stream.got.push(message)
        if (message.event.summary === last) {
          stream.complete = true
          return
        }
      }
    } catch (error) {
      if (!(error instanceof ClientError)) throw error
      stream.error = error
      const r = error.details.response
      if (recorded && r) recorded.response = { status: r.status, statusText: r.statusText, headers: Object.entries(r.headers), body: r.body, truncated: false }
    } finally {
      ctx.requestCount++
      await messages.return(undefined).catch(() => undefined)
    }
  })()
  void open.then(() => {
    if (recorded) recorded.response = { status: 101, statusText: 'Switching Protocols', headers: [], body: '', truncated: false }
  })
  return { open, done }
}

const FILTER = (tag: string) => `+tags:"${tag}" +port:9201`

/** The four events: [type, port, wanted by the unfiltered stream, by the filtered one]. */
function plan(nonce: string, tag: string): Planned[] {
  const rows: ['leak' | 'service', string, boolean, boolean][] = [
    ['leak', '9200', true, false],
    ['service', '9201', false, false],
    ['leak', '9201', true, true],
    ['leak', '9201', true, true],
  ]
  const now = BigInt(Date.now()) * 1_000_000n
  return rows.map(([type, port, plain, filtered], i) => {
    const event = emptyEvent()
    event.event_type = type
    event.event_source = 'l9kit-conform'
    event.ip = '192.0.2.222'
    event.port = port
    event.summary = `${nonce}-${i}`
    event.time = formatTime(now + BigInt(i) * 1_000_000n)
    if (type === 'leak') {
      event.leak.stage = 'open'
      event.leak.severity = 'info'
    }
    event.tags = [tag]
    return { event, wanted: [plain, filtered] }
  })
}

/** The verdict when a stream ended before it opened: no /ws route (404, 405, 501) is a skip, anything else a failure. */
function refusal(stream: Stream, openMs: number): Verdict {
  const early = stream.error
  if (early?.kind === 'http') {
    const status = early.status ?? 0
    if (status === 404 || status === 405 || status === 501) return skip(`the server has no live stream (GET /ws/leak answered ${status})`)
    return fail({ message: `the live stream ${stream.name} was refused: ${early.message}`, ...(early.details.response ? { response: early.details.response } : {}) })
  }
  return fail({ message: `the live stream ${stream.name} ${early ? `ended before it opened: ${early.message}` : `did not open within ${openMs / 1000} s`}` })
}

/** Deletes the scenario's events by their tag, and notes what became of them. */
async function deleteEvents(ctx: SuiteContext, adminToken: string, tag: string): Promise<void> {
  try {
    const deleted = await ctx.hookClient().deleteTagged(adminToken, tag)
    ctx.notes.push(`live-delivers wrote 4 test events tagged ${tag}; deleted ${deleted} with DELETE /admin/events?tag=${tag}`)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    const note = `live-delivers: the 4 test events tagged ${tag} (192.0.2.222) stay on the server: ${why}; delete them with the server's own tools`
    ctx.notes.push(note)
    ctx.leftBehind.push(note)
  }
}

const describe = (e: Event) => `the ${e.event_type} event ${JSON.stringify(e.summary)} (port ${e.port})`

export const liveDelivers: Check = {
  id: 'live-delivers',
  description: 'A subscriber of /ws/leak receives the leaks ingested after it connected (with and without a q filter that matches them), one event document per message',
  spec: SPEC,
  needsState: NEEDS_STATE,
  writes: true,
  async run(ctx) {
    const s = await scenario(ctx)
    if (!s.ok) return s.verdict
    for (const [i, stream] of s.streams.entries()) {
      if (stream.error) return fail({ message: `${stream.name} failed before the events came: ${stream.error.message}`, ...(stream.error.details.response ? { response: stream.error.details.response } : {}) })
      const summaries = new Set(stream.got.map((m) => m.event.summary))
      const missing = s.planned.find((p) => p.wanted[i] && !summaries.has(p.event.summary))
      if (missing) return fail({ message: `${stream.name} never carried ${describe(missing.event)}${stream.complete ? ', yet carried the events ingested after it' : ' (the wait ran out)'}` })
    }
    return pass(`${s.streams.map((st) => `${st.name}: ${st.got.length}`).join(', ')} messages`)
  },
}

export const liveScope: Check = {
  id: 'live-scope',
  description: '/ws/leak carries only leak events (a service event stored meanwhile is not sent to it)',
  spec: SPEC,
  needsState: NEEDS_STATE,
  writes: true,
  async run(ctx) {
    const s = await scenario(ctx)
    if (!s.ok) return s.verdict
    for (const stream of s.streams) {
      const wrong = stream.got.find((m) => m.event.event_type !== 'leak')
      if (wrong) return fail({ message: `${stream.name} carried ${describe(wrong.event)}` })
    }
    if (!s.streams.every((st) => st.complete)) return skip('a stream did not carry its last event: nothing to conclude about what it left out (live-delivers says why)')
    return pass('no service event on /ws/leak')
  },
}

export const liveFilter: Check = {
  id: 'live-filter',
  description: 'A /ws/leak subscriber with q=QUERY receives only events the query matches',
  spec: SPEC,
  needsState: NEEDS_STATE,
  writes: true,
  async run(ctx) {
    const s = await scenario(ctx)
    if (!s.ok) return s.verdict
    const stream = s.streams[1]
    const query = parseQuery(stream.query!, { scope: 'leak' })
    const wrong = stream.got.find((m) => m.event.event_type === 'leak' && !matches(query, m.event as never))
    if (wrong) return fail({ message: `${stream.name} carried ${describe(wrong.event)}, which its query does not match` }, stream.query)
    if (!stream.complete) return skip('the filtered stream did not carry its last event: nothing to conclude (live-delivers says why)')
    return pass(`${stream.got.length} messages, each matching`)
  },
}
