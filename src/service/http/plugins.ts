/**
 * GET /api/plugins and GET /api/plugins/:name: every plugin seen with its description and event
 * counts, or one plugin's name and description. Checks in the lookups' order: method, accept,
 * key (401), rate limit (429), parameter (400); an unknown name is 404 with the JSON string
 * `"Plugin not found"`, the body LeakIX's service sends (not the error object of other answers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { PLUGIN_NOT_FOUND, type Plugin, type PluginStats } from '../../schema/index.js'
import { describePlugin } from '../plugins/config.js'
import { nowInstant, type PluginCount } from '../store/index.js'
import { identify, withinLimit } from './caller.js'
import type { ServiceContext } from './context.js'
import { acceptsJson } from './lookups.js'
import { failed, READ_METHODS, sendError, sendJson, sendMethodNotAllowed, shown } from './reply.js'
import { badEncoding, decodeParam, pathOf } from './route.js'

export function handlePlugins(ctx: ServiceContext, req: IncomingMessage, res: ServerResponse, raw: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendMethodNotAllowed(res, req.method, pathOf(req.url), READ_METHODS)
  const accept = req.headers.accept
  if (accept !== undefined && !acceptsJson(accept)) return sendError(res, 406, `The answer is application/json, which the accept header (${shown(accept)}) does not allow.`)
  const caller = identify(ctx, req, res)
  if (caller === undefined || !withinLimit(ctx, caller, res)) return
  const name = decodeParam(raw)
  if (name === null) return sendError(res, 400, badEncoding(raw))
  const descriptions = ctx.config.pluginDescriptions
  const now = nowInstant()
  const fail = (error: unknown) => {
    if (!res.headersSent) sendError(res, 500, failed('The store failed', error))
  }
  if (name === '') {
    return void Promise.resolve(ctx.store.plugins(now)).then((all) => sendJson(res, 200, JSON.stringify(all.map((p) => stats(p, descriptions)))), fail)
  }
  Promise.resolve(ctx.store.plugin(name, now)).then((found) => {
    if (found === null) return sendJson(res, 404, JSON.stringify(PLUGIN_NOT_FOUND))
    const one: Plugin = { name: found.name, description: describePlugin(found.name, descriptions) }
    sendJson(res, 200, JSON.stringify(one))
  }, fail)
}

/** A plugin's entry of the list, members in the order LeakIX's clients read them. */
const stats = (p: PluginCount, descriptions: ReadonlyMap<string, string>): PluginStats => ({
  name: p.name,
  description: describePlugin(p.name, descriptions),
  event_count1h: p.count1h,
  event_count24h: p.count24h,
  event_count7d: p.count7d,
})
