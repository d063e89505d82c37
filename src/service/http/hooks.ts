/**
 * The hook API (docs/hooks.md), pro keys only: POST/GET /api/hooks, GET/DELETE /api/hooks/:id,
 * POST /api/hooks/:id/enable, POST /api/hooks/:id/test, GET /api/hooks/:id/deliveries?status=…,
 * POST /api/hooks/:id/deliveries/:delivery/retry, POST /api/hooks/:id/retry-failed. Another
 * owner's hook is answered like a missing one (404); a disabled hook takes no test and no
 * re-send (409) until it is enabled.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { DELIVERY_STATUSES, type DeliveryStatus, HookRequest, type RetryResult } from '../../schema/index.js'
import { generateSecret } from '../../webhooks/signature.js'
import { firstProblem } from '../hooks/check-body.js'
import { type HookRecord, urlProblem } from '../hooks/index.js'
import { sampleEvent } from '../hooks/sample-event.js'
import type { HookApi, ServiceContext } from './context.js'
import { apiKeyOwner } from './hook-auth.js'
import { createdHookBody, deliveryBody, hookBody } from './hook-shapes.js'
import { LimitReached } from '../store/hook-types.js'
import { pageRequest, sendPage } from './paging.js'
import { readJsonBody, sendBodyProblem } from './read-body.js'
import { sendError, sendJson, sendMethodNotAllowed } from './reply.js'
import { limitText, shownPath } from './resources.js'
import { decodeParam, ROUTES_TEXT } from './route.js'

type Action = 'list' | 'create' | 'get' | 'delete' | 'enable' | 'test' | 'deliveries' | 'retry' | 'retry-failed'

/**
 * The methods a path under /api/hooks takes (for 405's `allow`), or null when there is no such
 * path (404).
 */
function allowedOn(segments: string[]): string | null {
  const [, sub, delivery, tail] = segments
  switch (segments.length) {
    case 0:
      return 'GET, POST'
    case 1:
      return 'GET, DELETE'
    case 2:
      return sub === 'deliveries' ? 'GET' : sub === 'test' || sub === 'enable' || sub === 'retry-failed' ? 'POST' : null
    case 4:
      return sub === 'deliveries' && delivery !== '' && tail === 'retry' ? 'POST' : null
    default:
      return null
  }
}

/** The action a method and path name, or null (404, or 405 when the path takes other methods). */
function actionOf(method: string, segments: string[]): Action | null {
  const [, sub, delivery, tail] = segments
  switch (segments.length) {
    case 0:
      return method === 'GET' ? 'list' : method === 'POST' ? 'create' : null
    case 1:
      return method === 'GET' ? 'get' : method === 'DELETE' ? 'delete' : null
    case 2:
      if (sub === 'test' && method === 'POST') return 'test'
      if (sub === 'enable' && method === 'POST') return 'enable'
      if (sub === 'deliveries' && method === 'GET') return 'deliveries'
      if (sub === 'retry-failed' && method === 'POST') return 'retry-failed'
      return null
    case 4:
      return sub === 'deliveries' && delivery !== '' && tail === 'retry' && method === 'POST' ? 'retry' : null
    default:
      return null
  }
}

/** Answers a request under /api/hooks; `rest` is the path after it ('' or '/…'). */
export async function handleHooks(ctx: ServiceContext, api: HookApi, req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
  const segments = rest === '' ? [] : rest.slice(1).split('/').map((s) => decodeParam(s) ?? '')
  const action = actionOf(req.method ?? 'GET', segments)
  if (action === null) {
    const allow = allowedOn(segments)
    if (allow !== null) return sendMethodNotAllowed(res, req.method, `/api/hooks${rest}`, allow)
    return sendError(res, 404, `No route for ${req.method} ${shownPath(`/api/hooks${rest}`)}; routes are ${ROUTES_TEXT}.`)
  }
  const key = apiKeyOwner(ctx, req, res, true)
  if (key === undefined) return
  const owner = key.name

  if (action === 'list') {
    const page = pageRequest(req.url ?? '')
    if (typeof page === 'string') return sendError(res, 400, page)
    return sendPage(res, '/api/hooks', page, await api.store.hookPage(owner, page), hookBody)
  }
  if (action === 'create') return createHook(ctx, api, req, res, owner, ctx.config.plans[key.plan].hooks)

  const hookId = segments[0]!
  const hook = await api.store.hook(owner, hookId)
  if (hook === undefined) return sendError(res, 404, `No hook ${JSON.stringify(hookId)} belongs to this key.`)
  switch (action) {
    case 'get':
      return sendJson(res, 200, JSON.stringify(hookBody(hook)))
    case 'delete':
      await api.store.removeHook(owner, hook.id)
      return void res.writeHead(204).end()
    case 'enable': {
      const enabled = await api.store.enableHook(owner, hook.id)
      if (enabled === undefined) return sendError(res, 404, `No hook ${JSON.stringify(hookId)} belongs to this key.`)
      return sendJson(res, 200, JSON.stringify(hookBody(enabled)))
    }
    case 'deliveries':
      return listDeliveries(api, req, res, hook)
  }
  // Sending anything to a disabled hook waits until it is enabled.
  if (hook.state !== 'active') {
    return sendError(res, 409, `Hook ${hook.id} is disabled (${hook.disabledReason ?? 'no reason recorded'}); enable it first with POST /api/hooks/${hook.id}/enable.`)
  }
  switch (action) {
    case 'test':
      return sendTest(api, res, hook)
    case 'retry': {
      const deliveryId = segments[2]!
      if (await api.store.retry(hook.id, deliveryId, Date.now())) return sendRetried(res, 1)
      const known = (await api.store.deliveries(hook.id)).find((d) => d.id === deliveryId)
      if (known === undefined) return sendError(res, 404, `Hook ${hook.id} has no delivery ${JSON.stringify(deliveryId)}.`)
      return sendError(res, 409, `Delivery ${deliveryId} is ${known.status}; only failed deliveries can be re-sent.`)
    }
    case 'retry-failed':
      return sendRetried(res, await api.store.retryFailed(hook.id, Date.now()))
  }
}

async function createHook(ctx: ServiceContext, api: HookApi, req: IncomingMessage, res: ServerResponse, owner: string, limit: number | null): Promise<void> {
  const body = await readJsonBody(req)
  if (!body.ok) return sendBodyProblem(req, res, body)
  const problem = firstProblem(HookRequest, body.value)
  if (problem !== null) return sendError(res, 400, `Bad hook: ${problem}.`)
  const request = body.value as HookRequest
  const refused = await urlProblem(request.url, { allowPrivate: ctx.config.allowPrivateHooks, resolve: api.resolve })
  if (refused !== null) return sendError(res, 400, `Bad hook: member /url: ${refused}.`)
  let hook: HookRecord
  try {
    hook = await api.store.addHook(
      { owner, url: request.url, minSeverity: request.min_severity ?? 'medium', eventTypes: request.event_types ?? ['leak'], secret: request.secret ?? generateSecret() },
      limit,
    )
  } catch (error) {
    if (!(error instanceof LimitReached)) throw error
    return sendError(res, 409, limitText(error, 'pro'))
  }
  sendJson(res, 201, JSON.stringify(createdHookBody(hook)))
}

/** Queues one sample event for the hook, whatever its filters (like GitHub's ping); 202 with the delivery. */
async function sendTest(api: HookApi, res: ServerResponse, hook: HookRecord): Promise<void> {
  const event = sampleEvent()
  await api.store.enqueue([hook.id], event, Date.now())
  const mine = (await api.store.deliveries(hook.id)).filter((d) => d.fingerprint === event.fingerprint)
  const delivery = mine[mine.length - 1]
  if (delivery === undefined) return sendError(res, 500, 'The test delivery was not queued.')
  sendJson(res, 202, JSON.stringify(deliveryBody(delivery)))
}

async function listDeliveries(api: HookApi, req: IncomingMessage, res: ServerResponse, hook: HookRecord): Promise<void> {
  const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '')
  const status = query.get('status') ?? undefined
  if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
    return sendError(res, 400, `The status parameter must be one of ${DELIVERY_STATUSES.join(', ')} (got ${JSON.stringify(status)}).`)
  }
  const list = await api.store.deliveries(hook.id, status as DeliveryStatus | undefined)
  sendJson(res, 200, JSON.stringify(list.map(deliveryBody)))
}

function sendRetried(res: ServerResponse, queued: number): void {
  const body: RetryResult = { queued }
  sendJson(res, 200, JSON.stringify(body))
}
