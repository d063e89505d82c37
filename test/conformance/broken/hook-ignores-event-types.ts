/** Broken: event_types is ignored, so leak-only hooks also get service events. */
import { SEVERITIES } from '../../../src/schema/index.js'
import { CORRECT_HOOKS } from '../fake/hooks.js'
import { startFake } from '../fake/server.js'

const rank = (s: string) => SEVERITIES.indexOf(s as (typeof SEVERITIES)[number])

export const meant = ['hook-event-types']
export const start = () =>
  startFake({
    hooks: {
      ...CORRECT_HOOKS,
      // Leaks still need the listed type (the severity rule alone would let service-only hooks take them).
      wants: (hook, event) =>
        event.event_type === 'leak' ? CORRECT_HOOKS.wants(hook, event) : rank(event.leak.severity) <= rank(hook.min_severity),
    },
  })
