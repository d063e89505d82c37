/**
 * The live stream over WebSocket: GET /ws/service and /ws/leak with `Upgrade: websocket` (LeakIX's
 * Go client's GetChannel), on node:http's `upgrade` event. Checks in the lookups' order, each
 * refusal a whole HTTP answer with a JSON error body before the socket is closed: route (404),
 * method, key (401), rate limit (429, charged once per connection), plan (403, the plan's `live`
 * member), query (400), its cost per event (422, the plan's `max_query_cost`), connections at once
 * for the key and in all (429), the store's feed (503); then the connection goes to the fan-out process
 * (live/fanout.ts), which sends the 101 (`ws`) and the events. Any `Origin` is
 * accepted (the Go client sends `HOST:PORT`, not an origin): the key travels in a header that a
 * browser's WebSocket cannot set, so a page on another site cannot use a visitor's key.
 * A plain GET of those paths (no upgrade) is answered 426.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import { formatMillis } from '../ratelimit/index.js'
import { liveFilter } from '../live/filter.js'
import { CONFORM_RUN_PARAMETER } from '../store/conform-runs.js'
import { HANDSHAKE_HEADERS, type UpgradeRequest } from '../live/fanout-messages.js'
import type { LiveScope } from '../live/hub.js'
import type { Caller, ServiceContext } from './context.js'
import { SLOT_RETRY, slotRefused, tooCostly } from './costly.js'
import { failed, rawError, READ_METHODS, sendError, sendMethodNotAllowed } from './reply.js'
import { matchRoute, pathOf } from './route.js'

/** node:http's `upgrade` listener of a service. */
export function upgradeHandler(ctx: ServiceContext): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy())
    upgrade(ctx, req, socket, head).catch((error: unknown) => refuse(socket, 500, failed('Unexpected failure', error)))
  }
}

/** GET /ws/… without an upgrade: 426, saying how to connect. */
export function handleLivePlain(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS)
  sendError(res, 426, 'This is a WebSocket endpoint: connect with `Upgrade: websocket` (one event document per text message).', { upgrade: 'websocket', connection: 'Upgrade' })
}

async function upgrade(ctx: ServiceContext, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const target = matchRoute(req.url ?? '/')
  if (target === null || target.route !== 'live') return refuse(socket, 404, `No WebSocket endpoint here; the live stream is at /ws/service and /ws/leak.`)
  if (req.method !== 'GET') return refuse(socket, 405, `${req.method} is not allowed for a WebSocket upgrade; it takes GET.`, { allow: READ_METHODS })
  const caller = callerOf(ctx, req)
  if (caller === undefined) return refuse(socket, 401, 'The api-key header holds no known key. Send a valid key, or no key for the anonymous plan.')
  const rule = caller.plan.rate
  const waitMs = rule === null ? 0 : ctx.limiter.take(caller.bucket, rule)
  if (waitMs > 0) {
    const wait = formatMillis(waitMs)
    return refuse(socket, 429, `Rate limit of the ${caller.plan.name} plan reached: wait ${wait} (the x-limited-for header) before connecting again.`, {
      'x-limited-for': wait,
      'retry-after': String(Math.ceil(waitMs / 1000)),
    })
  }
  if (!caller.plan.live) {
    const which = Object.values(ctx.config.plans).filter((p) => p.live).map((p) => p.name)
    return refuse(socket, 403, `The live stream is for ${which.length > 0 ? which.join(' and ') + ' keys' : 'no plan here'}; this caller's plan is ${caller.plan.name}.`)
  }
  const params = new URL(req.url ?? '/', 'http://x').searchParams
  const filter = liveFilter(params.get('q'), target.param as LiveScope)
  if (!filter.ok) return refuse(socket, 400, filter.message)
  const costly = filter.filter.query === undefined ? undefined : tooCostly(caller.plan, filter.filter.query)
  if (costly !== undefined) return refuse(socket, 422, costly)
  const slot = ctx.slots.live.take(caller.bucket, caller.plan.liveConnections)
  if (typeof slot === 'string') return refuse(socket, 429, slotRefused(slot, 'live-stream connections', caller.plan.liveConnections, ctx.slots.live.max, caller.plan), SLOT_RETRY)
  let reserved
  try {
    reserved = await ctx.live.reserve()
  } catch (error) {
    slot()
    return refuse(socket, 503, failed('The live stream cannot follow the store now', error))
  }
  // The connection's slot is given back when it leaves (or never becomes a subscriber).
  const hold = {
    release: () => {
      slot()
      reserved.release()
    },
  }
  // The client may have gone while the feed got ready.
  if (socket.destroyed) return hold.release()
  // The fan-out process completes the handshake (fanout.ts); bytes the client sent after its request go with it.
  const more = socket.readableLength > 0 ? (socket.read() as Buffer | null) : null
  // A conformance run's subscriber (`l9kit-conform-run=RUN`) gets that run's test events, and only those.
  const run = params.get(CONFORM_RUN_PARAMETER)
  ctx.live.handOver(hold, target.param as LiveScope, filter.filter.text, handshakeOf(req), socket as Socket, more === null ? head : Buffer.concat([head, more]), run)
}

/** What `ws` reads of the request to complete a handshake. */
function handshakeOf(req: IncomingMessage): UpgradeRequest {
  const headers: Record<string, string | undefined> = {}
  for (const name of HANDSHAKE_HEADERS) {
    const value = req.headers[name]
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers }
}

/** The caller as the lookups identify it: no key (or an empty one) is anonymous; an unknown key, undefined. */
function callerOf(ctx: ServiceContext, req: IncomingMessage): Caller | undefined {
  const header = req.headers['api-key']
  if (header === undefined || header === '') return { plan: ctx.config.plans.anonymous, bucket: `address:${req.socket.remoteAddress ?? 'unknown'}` }
  const key = ctx.keys.identify(Array.isArray(header) ? header.join(',') : header)
  return key === undefined ? undefined : { plan: ctx.config.plans[key.plan], bucket: `key:${key.name}` }
}

/** A refused upgrade: a whole HTTP answer with a JSON error body, then the end of the connection. */
function refuse(socket: Duplex, status: number, description: string, headers?: Record<string, string>): void {
  if (!socket.writable) return void socket.destroy()
  socket.end(rawError(status, description, headers))
}
