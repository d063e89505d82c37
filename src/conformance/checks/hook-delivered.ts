/**
 * Every new event a hook matches reaches it, once: one POST per matching event (a retry of the
 * same delivery, with the same `webhook-id`, is allowed; two deliveries of one event are not).
 */
import { type Check, fail, pass, skip } from '../check.js'
import { HOOKS_NEED_STATE, hookScenario, hookWaitMs } from './hook-scenario.js'
import { eventText, exampleInput, hookText } from './hook-text.js'
import { plural } from './lib.js'

export const hookDelivered: Check = {
  id: 'hook-delivered',
  description: 'Each new event a hook matches (watched resource, listed type, severity at or above its minimum) is delivered to it once',
  spec: 'Events (alert hooks); docs/hooks.md',
  needsState: HOOKS_NEED_STATE,
  async run(ctx) {
    const s = await hookScenario(ctx)
    if (!s.ok) return skip(s.reason)
    let count = 0
    for (const run of s.runs) {
      for (const planned of run.expected) {
        const got = run.delivered.filter((d) => d.event === planned)
        if (got.length === 0) {
          return fail({ message: `${hookText(run.hook)} never received ${eventText(planned)} (waited ${hookWaitMs(ctx) / 1000} s)` }, exampleInput(run.hook, planned))
        }
        const ids = new Set(got.map((d, i) => d.arrival.headers['webhook-id'] ?? `(none ${i})`))
        if (ids.size > 1) {
          return fail({ message: `${hookText(run.hook)} received ${eventText(planned)} ${got.length} times as different deliveries (webhook-id ${[...ids].join(', ')})` }, exampleInput(run.hook, planned))
        }
        count++
      }
    }
    return pass(`${plural(count, 'expected delivery', 'expected deliveries')} to ${plural(s.runs.length, 'hook')}`)
  },
}
