/** What the plugin checks share: the list answer, once per run, and whether the server has the route. */
import type { RawResponse } from '../../client/index.js'
import { segment } from '../../client/index.js'
import { validateDocument } from '../../validate/index.js'
import type { SuiteContext } from '../context.js'

export const PLUGINS_PATH = '/api/plugins'
export const pluginPath = (name: string) => `${PLUGINS_PATH}/${segment(name)}`

/** The 404 body of an unknown plugin on LeakIX's service: a JSON string (docs/specification.md). */
export const PLUGIN_NOT_FOUND_BODY = 'Plugin not found'

export type PluginsAnswer =
  | { ok: true; response: RawResponse; plugins: { name: string; description: string; event_count1h: number; event_count24h: number; event_count7d: number }[] }
  | { ok: false; skip: string }
  | { ok: false; response: RawResponse; shape: string }

/** GET /api/plugins (shared by the checks: one request per run), judged against the `plugins` schema. */
export async function pluginsAnswer(ctx: SuiteContext): Promise<PluginsAnswer> {
  const response = await ctx.get(PLUGINS_PATH)
  if (response.status === 404 || response.status === 405 || response.status === 501) return { ok: false, skip: `the server has no GET ${PLUGINS_PATH} (answered ${response.status})` }
  if (response.status === 401 || response.status === 403) return { ok: false, skip: `GET ${PLUGINS_PATH} was refused (${response.status}): give a key the server accepts (--api-key)` }
  if (response.status !== 200) return { ok: false, response, shape: `GET ${PLUGINS_PATH} answered ${response.status}, not 200` }
  const body = ctx.json(response)
  const report = validateDocument('plugins', body)
  if (!report.ok) {
    const first = report.errors[0]!
    return { ok: false, response, shape: `the plugin list does not validate: ${first.pointer || '(body)'}: ${first.message}` }
  }
  return { ok: true, response, plugins: body as never }
}
