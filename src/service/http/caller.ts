/** Identifying the caller (api-key header → plan, or anonymous) and charging its rate limit. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { formatMillis } from '../ratelimit/index.js'
import type { Caller, ServiceContext } from './context.js'
import { sendError } from './reply.js'

/**
 * The caller, or undefined after answering 401 (with `headers`, if given) (a non-empty key was sent but is not known).
 * Without the header, or with an empty one, the caller is anonymous, limited per address:
 * client libraries (LeakIX's Go client among them) always send the header, empty when they
 * have no key, and mean "no key" by it.
 */
export function identify(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, headers?: Readonly<Record<string, string>>): Caller | undefined {
  const header = req.headers['api-key']
  if (header === undefined || header === '') return anonymousCaller(ctx, req)
  const key = ctx.keys.identify(Array.isArray(header) ? header.join(',') : header)
  if (key === undefined) {
    sendError(res, 401, 'The api-key header holds no known key. Send a valid key, or no key (no api-key header, or an empty one) for the anonymous plan.', headers)
    return undefined
  }
  return { plan: ctx.config.plans[key.plan], bucket: `key:${key.name}` }
}

/**
 * The anonymous caller of the request's connection, its bucket `address:` + the client's
 * address, made once per connection: a new string per request made the limiter's Map hash it
 * every time, and a new caller per request was garbage. Callers are never changed once made.
 */
const anonymousCallers = new WeakMap<object, Caller>()
function anonymousCaller(ctx: ServiceContext, req: IncomingMessage): Caller {
  const plan = ctx.config.plans.anonymous
  let caller = anonymousCallers.get(req.socket)
  if (caller === undefined || caller.plan !== plan) {
    caller = { plan, bucket: `address:${req.socket.remoteAddress ?? 'unknown'}` }
    anonymousCallers.set(req.socket, caller)
  }
  return caller
}

/**
 * True when the request may go on; otherwise answers 429 with `x-limited-for` (and `headers`,
 * if given) and returns false.
 */
export function withinLimit(ctx: ServiceContext, caller: Caller, res: ServerResponse, headers?: Readonly<Record<string, string>>): boolean {
  const rule = caller.plan.rate
  if (rule === null) return true
  const waitMs = ctx.limiter.take(caller.bucket, rule)
  if (waitMs === 0) return true
  const wait = formatMillis(waitMs)
  sendError(res, 429, `Rate limit of the ${caller.plan.name} plan reached: wait ${wait} (the x-limited-for header) before the next request.`, {
    'x-limited-for': wait,
    'retry-after': String(Math.ceil(waitMs / 1000)),
    ...headers,
  })
  return false
}
