/** Broken: event times written with a `+00:00` offset instead of `Z` (as the Python port does). */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['event-time-format']
export const start = () =>
  startFake({ lookupBody: (events) => CORRECT.lookupBody(events.map((e) => ({ ...e, time: e.time.replace(/Z$/, '+00:00') }))) })
