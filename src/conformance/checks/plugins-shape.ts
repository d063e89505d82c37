/** GET /api/plugins answers a list of {name, description, event_count1h, event_count24h, event_count7d}. */
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt } from './lib.js'
import { pluginsAnswer } from './plugins-lib.js'

export const pluginsShape: Check = {
  id: 'plugins-shape',
  description: 'GET /api/plugins answers 200 with a list that validates against schema/plugins.schema.json',
  spec: "LeakIX's API: Operations beyond the three lookups (plugins)",
  async run(ctx) {
    const answer = await pluginsAnswer(ctx)
    if ('skip' in answer) return skip(answer.skip)
    if (!answer.ok) return fail(problemAt(answer.response, answer.shape))
    return pass(plural(answer.plugins.length, 'plugin'))
  },
}
