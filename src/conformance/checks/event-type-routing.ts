/** `Services` holds only `service` events, `Leaks` only `leak` events. */
import { type Check, fail, pass, skip } from '../check.js'
import { knownAnswers } from './known.js'
import { plural, problemAt, seenEvents } from './lib.js'

const EXPECTED = { Services: 'service', Leaks: 'leak' } as const

export const eventTypeRouting: Check = {
  id: 'event-type-routing',
  description: '`Services` holds only events of event_type `service`, `Leaks` only events of event_type `leak`',
  spec: 'Resources: Lookup result; Events (event kinds)',
  async run(ctx) {
    await knownAnswers(ctx)
    const events = seenEvents(ctx)
    for (const { event, pointer, response } of events) {
      const member = pointer.split('/')[1] as keyof typeof EXPECTED
      if (event.event_type !== EXPECTED[member]) {
        return fail(problemAt(response, `${pointer} is in ${member} but its event_type is ${JSON.stringify(event.event_type)}, not "${EXPECTED[member]}"`))
      }
    }
    if (events.length === 0) return skip('no event was seen (give --domain or --ip names the server holds)')
    return pass(plural(events.length, 'event'))
  },
}
