/**
 * Who may use the hook API: watched resources take any known key, hooks a pro key. No key or
 * an unknown key is 401, a registered key on a hook route 403. Requests are charged to the
 * key's rate-limit bucket like lookups (docs/hooks.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiKey } from '../auth/index.js'
import { withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { sendError } from './reply.js'

/** The calling key, or undefined after answering 401, 403 or 429. */
export function apiKeyOwner(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, needsPro: boolean): ApiKey | undefined {
  const header = req.headers['api-key']
  const what = needsPro ? 'Hooks need a pro key' : 'Watched resources need a key'
  if (header === undefined) {
    sendError(res, 401, `${what} in the api-key header.`)
    return undefined
  }
  const key = ctx.keys.identify(Array.isArray(header) ? header.join(',') : header)
  if (key === undefined) {
    sendError(res, 401, 'The api-key header holds no known key.')
    return undefined
  }
  if (needsPro && key.plan !== 'pro') {
    sendError(res, 403, `Hooks are for pro keys only; this key's plan is ${key.plan}.`)
    return undefined
  }
  if (!withinLimit(ctx, { plan: ctx.config.plans[key.plan], bucket: `key:${key.name}` }, res)) return undefined
  return key
}
