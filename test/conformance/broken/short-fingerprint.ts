/** Broken: `event_fingerprint` truncated to 63 characters. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['event-fingerprint-format']
export const start = () =>
  startFake({ lookupBody: (events) => CORRECT.lookupBody(events.map((e) => ({ ...e, event_fingerprint: e.event_fingerprint.slice(1) }))) })
