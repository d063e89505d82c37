/** GET /api/plugins/:name of a listed plugin answers {name, description}, the same as the list says. */
import { validateDocument } from '../../validate/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { problemAt } from './lib.js'
import { pluginPath, pluginsAnswer } from './plugins-lib.js'

/** Plugins asked about one by one at most (each is a request). */
const ASKED = 3

export const pluginFound: Check = {
  id: 'plugin-found',
  description: 'GET /api/plugins/:name of a plugin the list names answers 200 {name, description}, with the list’s name and description',
  spec: "LeakIX's API: Operations beyond the three lookups (one plugin)",
  needsState: 'answering a plugin by its name needs the list the server keeps; a fixed example names one plugin',
  async run(ctx) {
    const answer = await pluginsAnswer(ctx)
    if ('skip' in answer) return skip(answer.skip)
    if (!answer.ok) return skip('the plugin list is not well shaped (plugins-shape says why)')
    if (answer.plugins.length === 0) return skip('the server lists no plugin to ask about')
    const asked = answer.plugins.slice(0, ASKED)
    for (const listed of asked) {
      const response = await ctx.get(pluginPath(listed.name))
      if (response.status !== 200) return fail(problemAt(response, `plugin ${JSON.stringify(listed.name)} is listed, yet asking for it answered ${response.status}`))
      const body = ctx.json(response)
      const report = validateDocument('plugin', body)
      if (!report.ok) return fail(problemAt(response, `the answer is not {name, description}: ${report.errors[0]!.pointer || '(body)'}: ${report.errors[0]!.message}`))
      const one = body as { name: string; description: string }
      if (one.name !== listed.name || one.description !== listed.description) {
        return fail(problemAt(response, `the answer names ${JSON.stringify(one.name)} described ${JSON.stringify(one.description)}; the list said ${JSON.stringify(listed.name)}, ${JSON.stringify(listed.description)}`))
      }
    }
    return pass(`${asked.length} of ${answer.plugins.length} plugins asked for`)
  },
}
