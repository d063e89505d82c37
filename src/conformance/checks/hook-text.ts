/** How the hook checks name hooks and events in their messages and example inputs. */
import type { PlannedEvent, PlannedHook } from './hook-plan.js'

/** `hook medium-leaks (min_severity medium, event_types leak)` */
export const hookText = (hook: PlannedHook) => `hook ${hook.name} (min_severity ${hook.request.min_severity}, event_types ${hook.request.event_types.join(',')})`

/** `event 4 (leak high on deep.api.c1-watch.test, 192.0.2.10)` */
export function eventText(planned: PlannedEvent): string {
  const e = planned.event
  const what = e.event_type === 'leak' ? `leak ${e.leak.severity}` : e.event_type
  return `event ${planned.index + 1} (${what} on ${e.host}, ${e.ip})`
}

/** The example input of a hook failure: the hook as registered and the event as ingested. */
export const exampleInput = (hook: PlannedHook, planned?: PlannedEvent) =>
  JSON.stringify({ hook: { ...hook.request, url: `/${hook.name}`, secret: undefined }, ...(planned ? { event: { index: planned.index + 1, event_type: planned.event.event_type, host: planned.event.host, ip: planned.event.ip, severity: planned.event.leak.severity } } : {}) })
