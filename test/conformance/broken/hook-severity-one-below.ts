/** Broken: a hook also gets leaks one level below its min_severity (an off-by-one floor). */
import { SEVERITIES } from '../../../src/schema/index.js'
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

const rank = (s: string) => SEVERITIES.indexOf(s as (typeof SEVERITIES)[number])

export const meant = ['hook-severity-floor']
export const start = () =>
  startFake({
    hooks: {
      ...CORRECT_HOOKS,
      wants: (hook, event) =>
        hook.event_types.includes(event.event_type) && (event.event_type !== 'leak' || rank(event.leak.severity) <= rank(hook.min_severity) + 1),
    },
  })
