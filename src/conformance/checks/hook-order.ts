/** Each hook receives its events in ingest order (the first arrival of each counts; retries may repeat). */
import { type Check, fail, pass, skip } from '../check.js'
import { HOOKS_NEED_STATE, hookScenario } from './hook-scenario.js'
import { eventText, exampleInput, hookText } from './hook-text.js'
import { plural } from './lib.js'

export const hookOrder: Check = {
  id: 'hook-order',
  description: 'Each hook receives its matching events in the order they were ingested',
  spec: 'Events (alert hooks); docs/hooks.md (in order per hook)',
  needsState: HOOKS_NEED_STATE,
  async run(ctx) {
    const s = await hookScenario(ctx)
    if (!s.ok) return skip(s.reason)
    let judged = 0
    for (const run of s.runs) {
      const seen = new Set<number>()
      let last = -1
      let lastEvent
      for (const d of run.delivered) {
        if (!d.event || !run.expected.includes(d.event) || seen.has(d.event.index)) continue
        seen.add(d.event.index)
        if (d.event.index < last) {
          return fail({ message: `${hookText(run.hook)} received ${eventText(d.event)} after ${eventText(lastEvent!)}, which was ingested later` }, exampleInput(run.hook, d.event))
        }
        last = d.event.index
        lastEvent = d.event
      }
      if (seen.size > 1) judged++
    }
    if (judged === 0) return skip('no hook received two of its events to compare')
    return pass(`${plural(judged, 'hook')} in order`)
  },
}
