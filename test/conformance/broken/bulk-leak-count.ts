/** Broken: each aggregation counts one leak event more than it holds. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['bulk-counts']
export const start = () =>
  startFake({
    bulk: (route, q, events) =>
      CORRECT.bulk(route, q, events).map((line) => (route === 'search' ? { ...(line as object), leak_event_count: (line as { leak_event_count: number }).leak_event_count + 1 } : line)),
  })
