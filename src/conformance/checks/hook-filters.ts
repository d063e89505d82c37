/**
 * What a hook must not receive, one check per reason, so a server with one wrong rule fails
 * one check: events outside the watched resources, events of look-alike domains, events of a
 * type the hook does not list, and leaks below its minimum severity.
 */
import { type Check, fail, pass, skip } from '../check.js'
import { type Exclusion, exclusion } from './hook-plan.js'
import { excluded, HOOKS_NEED_STATE, hookScenario } from './hook-scenario.js'
import { eventText, exampleInput, hookText } from './hook-text.js'
import { plural } from './lib.js'

function filterCheck(id: string, reason: Exclusion, description: string, why: string): Check {
  return {
    id,
    description,
    spec: 'Events (alert hooks); docs/hooks.md',
    needsState: HOOKS_NEED_STATE,
    async run(ctx) {
      const s = await hookScenario(ctx)
      if (!s.ok) return skip(s.reason)
      let judged = 0
      for (const run of s.runs) {
        judged += s.plan.events.filter((e) => exclusion(s.plan, run.hook, e) === reason).length
        for (const d of run.delivered) {
          if (excluded(s.plan, run, d) === reason) return fail({ message: `${hookText(run.hook)} received ${eventText(d.event!)}, ${why}` }, exampleInput(run.hook, d.event))
        }
      }
      if (judged === 0) {
        const existing = s.plan.existing.length === 0 ? '' : ` (the key already watched ${plural(s.plan.existing.length, 'resource')}, which cover the events planned for this)`
        return skip(`no planned event was ${why} for any hook${existing}`)
      }
      return pass(`${plural(judged, 'hook and event pair')} withheld as they should be`)
    },
  }
}

export const hookUnwatched = filterCheck(
  'hook-unwatched',
  'unwatched',
  'No event outside the key’s watched resources (domain and names below it, network) is delivered',
  'which no watched resource covers',
)

export const hookLookAlikes = filterCheck(
  'hook-look-alikes',
  'look-alike',
  'No event of a look-alike domain (notexample.com for example.com, example.com.evil.test) is delivered',
  'whose host only looks like the watched domain',
)

export const hookEventTypes = filterCheck(
  'hook-event-types',
  'event-type',
  'No event of a type the hook does not list in event_types is delivered',
  'a type the hook does not list',
)

export const hookSeverityFloor = filterCheck(
  'hook-severity-floor',
  'severity',
  'No leak below the hook’s min_severity is delivered (critical > high > medium > low > info)',
  'below the hook’s min_severity',
)
