/** Broken: the lookup result's member is `services`, not `Services`. */
import { CORRECT, send, startFake } from '../fake/server.js'

export const meant = ['lookup-shape']
export const start = () =>
  startFake({
    lookupBody(events) {
      const { Services, Leaks } = CORRECT.lookupBody(events) as Record<string, unknown>
      return { services: Services, Leaks }
    },
    unknown: (res, route) => (route === 'subdomains' ? CORRECT.unknown(res, route) : send(res, 200, { services: null, Leaks: null })),
  })
