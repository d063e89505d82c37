/** Broken (the public service's way): an unknown host or domain is 404, not 200 with nulls. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['unknown-resource-404']
export const start = () =>
  startFake({ unknown: (res, route) => (route === 'subdomains' ? CORRECT.unknown(res, route) : CORRECT.error(res, 404, 'Host not found')) })
