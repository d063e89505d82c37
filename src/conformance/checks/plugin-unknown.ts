/** An unknown plugin name is 404 with the JSON string "Plugin not found", as LeakIX's service answers. */
import fc from 'fast-check'
import { type Check, fail, pass, skip } from '../check.js'
import { problemAt } from './lib.js'
import { PLUGIN_NOT_FOUND_BODY, pluginPath, pluginsAnswer } from './plugins-lib.js'

export const pluginUnknown: Check = {
  id: 'plugin-unknown',
  description: 'GET /api/plugins/:name of a plugin the server does not know answers 404 with the JSON string "Plugin not found"',
  spec: "LeakIX's API: Operations beyond the three lookups (one plugin: unknown name)",
  needsState: 'telling an unknown plugin from a known one needs the list the server keeps',
  async run(ctx) {
    const answer = await pluginsAnswer(ctx)
    if ('skip' in answer) return skip(answer.skip)
    const listed = new Set(answer.ok ? answer.plugins.map((p) => p.name) : [])
    const unknown = fc.stringMatching(/^L9kitUnknown[A-Za-z0-9]{4,12}Plugin$/).filter((name) => !listed.has(name))
    const result = await ctx.property('plugin-unknown', unknown, async (name) => {
      const response = await ctx.get(pluginPath(name))
      if (response.status !== 404) return problemAt(response, `an unknown plugin was answered ${response.status}, not 404`)
      if (ctx.json(response) !== PLUGIN_NOT_FOUND_BODY) return problemAt(response, `the 404 body is ${response.body.slice(0, 80) || '(empty)'}, not the JSON string "Plugin not found" LeakIX's clients expect`)
      return undefined
    }, { examples: ['L9kitUnknownSamplePlugin'], runs: 2 })
    return result.ok ? pass() : fail(result.problem, result.input, result.path)
  },
}
