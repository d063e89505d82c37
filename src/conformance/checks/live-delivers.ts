/**
 * The live stream delivers an ingested event: subscribe to /ws/leak, ingest one leak through
 * POST /admin/events (admin token), and wait (bounded) for a message carrying it. Writes one
 * event, on a documentation address (RFC 5737) with this run's nonce in its summary and the
 * run's tag `l9kit-conform:RUN`, and deletes it afterwards (DELETE /admin/events?tag=, noted).
 * It subscribes with `l9kit-conform-run=RUN`: the reference service streams a run's test events
 * to that run's subscribers only, as it delivers them to that run's hooks only.
 * Skipped without --allow-writes, without an admin token, without a key the stream accepts, or
 * when the server has no /ws route.
 */
import { ClientError, HookClient, Pacer } from '../../client/index.js'
import { liveMessages, type LiveMessage } from '../../client/live.js'
import { emptyEvent } from '../../schema/index.js'
import { formatTime } from '../../time/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import type { SuiteContext } from '../context.js'
import { RUN_PARAMETER, RUN_TAG_PREFIX, runNonce } from './hook-plan.js'

/** How long the event may take to arrive. */
const WAIT_MS = 10_000

export const liveDelivers: Check = {
  id: 'live-delivers',
  description: 'A subscriber of the live stream (WebSocket /ws/leak) receives a leak event ingested after it connected, as one event document',
  spec: 'spec/leakix-api.md: Operations beyond the three lookups (live stream)',
  needsState: 'an ingested event must reach the stream',
  async run(ctx) {
    const { adminToken, allowWrites } = ctx.options
    if (!allowWrites) return skip(LIVE_NEEDS_WRITES)
    const key = ctx.options.proKey ?? ctx.options.apiKey
    if (adminToken === undefined) return skip('needs --admin-token: the check ingests the event it waits for')
    if (key === undefined) return skip('needs --pro-key (or --api-key) that may subscribe to the live stream')
    const nonce = runNonce(ctx.seedFor('live-delivers'))
    const stop = new AbortController()
    let cleanup: (() => Promise<void>) | undefined
    let open: () => void = () => undefined
    const opened = new Promise<'open'>((resolve) => (open = () => resolve('open')))
    // Named as the run's subscriber: the reference service streams a run's test events to that run's subscribers only.
    const params = { [RUN_PARAMETER]: nonce }
    const messages = liveMessages(ctx.options.baseUrl, key, 'leak', { signal: stop.signal, onOpen: () => open(), params })
    const timer = setTimeout(() => stop.abort(), WAIT_MS)
    try {
      const arrival = waitFor(messages, nonce)
      // The event is ingested once the server accepted the subscription (its 101), not before.
      const first = await Promise.race([opened, arrival])
      if (first !== 'open') return refused(ctx, first)
      await ingest(ctx, adminToken, nonce)
      cleanup = () => deleteEvent(ctx, adminToken, nonce)
      const found = await arrival
      if (found instanceof ClientError) return fail({ message: `the stream failed before the event came: ${found.message}`, ...(found.details.response ? { response: found.details.response } : {}) })
      if (found === null) return fail({ message: `no message carrying the ingested event (summary ${nonce}) within ${WAIT_MS / 1000} s` })
      return pass(`the event arrived (${found.text.length} bytes)`)
    } finally {
      clearTimeout(timer)
      stop.abort()
      await messages.return(undefined).catch(() => undefined)
      await cleanup?.().catch(() => undefined)
    }
  },
}

/** The first message whose summary holds `nonce`, null when the stream ended first, or the error that ended it. */
async function waitFor(messages: AsyncGenerator<LiveMessage>, nonce: string): Promise<LiveMessage | null | ClientError> {
  try {
    for await (const message of messages) if (message.event.summary.includes(nonce)) return message
    return null
  } catch (error) {
    if (error instanceof ClientError) return error
    throw error
  }
}

/** The verdict when the stream ended before it opened: no /ws route (404) is a skip, anything else a failure. */
function refused(ctx: SuiteContext, early: LiveMessage | null | ClientError): ReturnType<typeof skip> | ReturnType<typeof fail> {
  if (early instanceof ClientError && early.kind === 'http') {
    ctx.requestCount++
    const status = early.status ?? 0
    if (status === 404 || status === 405 || status === 501) return skip(`the server has no live stream (GET /ws/leak answered ${status})`)
    return fail({ message: `the live stream was refused: ${early.message}`, ...(early.details.response ? { response: early.details.response } : {}) })
  }
  return fail({ message: `the live stream ended before it opened: ${early instanceof ClientError ? early.message : 'no error, no message'}` })
}

/** Why the check is skipped without `--allow-writes`. */
export const LIVE_NEEDS_WRITES =
  'needs --allow-writes (with --admin-token): the check writes one test event tagged l9kit-conform:RUN (deleted afterwards where the server offers DELETE /admin/events?tag=)'

const adminClient = (ctx: SuiteContext) =>
  new HookClient({ baseUrl: ctx.options.baseUrl, pacer: new Pacer(ctx.options.rate ?? 1), timeoutMs: ctx.options.timeoutMs ?? 15_000, validate: false, onResponse: () => ctx.requestCount++ })

/** Deletes the check's event by its tag, and notes what became of it. */
async function deleteEvent(ctx: SuiteContext, adminToken: string, nonce: string): Promise<void> {
  const tag = `${RUN_TAG_PREFIX}${nonce}`
  try {
    const deleted = await adminClient(ctx).deleteTagged(adminToken, tag)
    ctx.notes.push(`live-delivers wrote 1 test event tagged ${tag}; deleted ${deleted} with DELETE /admin/events?tag=${tag}`)
  } catch (error) {
    const why = error instanceof ClientError || error instanceof Error ? error.message : String(error)
    const note = `live-delivers: the test event tagged ${tag} (192.0.2.222:9200) stays on the server: ${why}; delete it with the server's own tools`
    ctx.notes.push(note)
    ctx.leftBehind.push(note)
  }
}

/** Ingests one leak on a documentation address whose summary is `nonce`, tagged with the run's tag. */
async function ingest(ctx: SuiteContext, adminToken: string, nonce: string): Promise<void> {
  const event = emptyEvent()
  event.event_type = 'leak'
  event.event_source = 'l9kit-conform'
  event.ip = '192.0.2.222'
  event.port = '9200'
  event.summary = nonce
  event.time = formatTime(BigInt(Date.now()) * 1_000_000n)
  event.leak.stage = 'open'
  event.leak.severity = 'info'
  event.tags = [`${RUN_TAG_PREFIX}${nonce}`]
  await adminClient(ctx).ingest(adminToken, `${JSON.stringify(event)}\n`)
}
