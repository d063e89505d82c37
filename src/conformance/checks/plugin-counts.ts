/** Each plugin's counts are windows inside each other: event_count1h ≤ event_count24h ≤ event_count7d. */
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt } from './lib.js'
import { pluginsAnswer } from './plugins-lib.js'

export const pluginCounts: Check = {
  id: 'plugin-counts',
  description: 'Every plugin of GET /api/plugins has event_count1h ≤ event_count24h ≤ event_count7d (the last hour lies in the last day, the day in the week)',
  spec: "LeakIX's API: Operations beyond the three lookups (plugins)",
  async run(ctx) {
    const answer = await pluginsAnswer(ctx)
    if ('skip' in answer) return skip(answer.skip)
    if (!answer.ok) return skip('the plugin list is not well shaped (plugins-shape says why)')
    const wrong = answer.plugins.find((p) => !(p.event_count1h <= p.event_count24h && p.event_count24h <= p.event_count7d))
    if (wrong) {
      const counts = `${wrong.event_count1h} / ${wrong.event_count24h} / ${wrong.event_count7d}`
      return fail(problemAt(answer.response, `plugin ${JSON.stringify(wrong.name)} has counts 1h / 24h / 7d = ${counts}: a shorter window cannot hold more events`))
    }
    if (answer.plugins.length === 0) return skip('the server lists no plugin')
    return pass(plural(answer.plugins.length, 'plugin'))
  },
}
