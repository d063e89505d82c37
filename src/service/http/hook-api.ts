/** Entry of the hook API routes (/api/resources…, /api/hooks…): async handlers whose failures are 500s. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ServiceContext } from './context.js'
import { handleHooks } from './hooks.js'
import { failed, sendError } from './reply.js'
import { handleResources } from './resources.js'

/** Answers a request under /api/resources or /api/hooks; `rest` is the path after that prefix. */
export function handleHookApi(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, route: 'resources' | 'hooks', rest: string): void {
  const api = ctx.hooks
  if (api === undefined) return sendError(res, 404, 'Hooks are not enabled in this service.')
  const handle = route === 'resources' ? handleResources : handleHooks
  handle(ctx, api, req, res, rest).catch((error: unknown) => {
    if (!res.headersSent) sendError(res, 500, failed('The hook store failed', error))
    else res.destroy()
  })
}
