/**
 * Watched resources (docs/hooks.md): POST /api/resources → 201 {id, type, value} (409 past the
 * plan's cap), GET /api/resources → a page of the caller's, oldest first, DELETE
 * /api/resources/:id → 204. Any known key.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ResourceRequest, type ResourceType } from '../../schema/index.js'
import { firstProblem } from '../hooks/check-body.js'
import { canonicalResource } from '../hooks/index.js'
import type { HookApi, ServiceContext } from './context.js'
import { apiKeyOwner } from './hook-auth.js'
import { resourceBody } from './hook-shapes.js'
import { LimitReached } from '../store/hook-types.js'
import { pageRequest, sendPage } from './paging.js'
import { readJsonBody, sendBodyProblem } from './read-body.js'
import { sendError, sendJson, sendMethodNotAllowed } from './reply.js'
import { decodeParam, ROUTES_TEXT } from './route.js'

/** Answers a request under /api/resources; `rest` is the path after it ('' or '/…'). */
export async function handleResources(ctx: ServiceContext, api: HookApi, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const segments = rest === '' ? [] : rest.slice(1).split('/')
  const route = segments.length === 0 ? (req.method === 'GET' || req.method === 'POST' ? req.method : null) : segments.length === 1 && req.method === 'DELETE' ? 'DELETE' : null
  if (route === null) {
    if (segments.length <= 1) return sendMethodNotAllowed(res, req.method, `/api/resources${rest}`, segments.length === 0 ? 'GET, POST' : 'DELETE')
    return sendError(res, 404, `No route for ${req.method} ${shownPath(`/api/resources${rest}`)}; routes are ${ROUTES_TEXT}.`)
  }
  const key = apiKeyOwner(ctx, req, res, false)
  if (key === undefined) return
  if (route === 'GET') {
    const page = pageRequest(req.url ?? '')
    if (typeof page === 'string') return sendError(res, 400, page)
    return sendPage(res, '/api/resources', page, await api.store.resourcePage(key.name, page), resourceBody)
  }
  if (route === 'DELETE') {
    const id = decodeParam(segments[0]!) ?? ''
    if (!(await api.store.removeResource(key.name, id))) return sendError(res, 404, `No watched resource ${JSON.stringify(id)} belongs to this key.`)
    res.writeHead(204).end()
    return
  }
  const body = await readJsonBody(req)
  if (!body.ok) return sendBodyProblem(req, res, body)
  const problem = firstProblem(ResourceRequest, body.value)
  if (problem !== null) return sendError(res, 400, `Bad resource: ${problem}.`)
  const { type, value } = body.value as { type: ResourceType; value: string }
  const canonical = canonicalResource(type, value)
  if (!canonical.ok) return sendError(res, 400, `Bad resource: member /value: ${canonical.reason}.`)
  try {
    const resource = await api.store.addResource(key.name, type, canonical.value, ctx.config.plans[key.plan].resources)
    sendJson(res, 201, JSON.stringify(resourceBody(resource)))
  } catch (error) {
    if (!(error instanceof LimitReached)) throw error
    sendError(res, 409, limitText(error, key.plan))
  }
}

/** The 409 description when a key is at its plan's cap. */
export const limitText = (error: LimitReached, plan: string) =>
  `This key already has ${error.limit} ${error.what === 'hooks' ? 'hooks' : 'watched resources'}, the most its plan (${plan}) allows; remove some first.`

export const shownPath = (rest: string) => JSON.stringify(rest.length > 60 ? rest.slice(0, 57) + '...' : rest)
