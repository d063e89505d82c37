/** Broken: every event goes into `Services`, leaks included. */
import { startFake } from '../fake/server.js'

export const meant = ['event-type-routing']
export const start = () => startFake({ lookupBody: (events) => ({ Services: events, Leaks: null }) })
