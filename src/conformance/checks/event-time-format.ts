/** Event times are RFC 3339 in UTC with `Z`, at most nanosecond fractions, on dates that exist. */
import { TIME_LENIENT } from '../../schema/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { knownAnswers } from './known.js'
import { plural, problemAt, seenEvents } from './lib.js'

const RFC3339 = new RegExp(TIME_LENIENT)
/** The specification's rule: UTC `Z`, `T` separator, 0–9 fraction digits (trailing zeros allowed). */
export const wellFormedTime = (value: unknown) => typeof value === 'string' && RFC3339.test(value) && /^\d{4}-\d\d-\d\dT[^Z]*Z$/.test(value)

const MEMBERS: [string, (e: Record<string, unknown>) => unknown][] = [
  ['time', (e) => e.time],
  ['ssl/certificate/not_before', (e) => (e.ssl as { certificate?: Record<string, unknown> })?.certificate?.not_before],
  ['ssl/certificate/not_after', (e) => (e.ssl as { certificate?: Record<string, unknown> })?.certificate?.not_after],
]

export const eventTimeFormat: Check = {
  id: 'event-time-format',
  description: 'Event times (`time`, certificate validity) are RFC 3339 UTC with `Z` and at most 9 fraction digits',
  spec: 'Resources: Event document (time)',
  async run(ctx) {
    await knownAnswers(ctx)
    const events = seenEvents(ctx)
    for (const { event, pointer, response } of events) {
      for (const [member, read] of MEMBERS) {
        const value = read(event)
        if (!wellFormedTime(value)) return fail(problemAt(response, `${pointer}/${member} is ${JSON.stringify(value)}, not a UTC time such as 2023-01-02T03:04:05.123456789Z`))
      }
    }
    if (events.length === 0) return skip('no event was seen (give --domain or --ip names the server holds)')
    return pass(plural(events.length, 'event'))
  },
}
