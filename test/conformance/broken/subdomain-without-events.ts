/** Broken: the subdomain list names a host the domain lookup has no event for. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['subdomains-have-events']
export const start = () =>
  startFake({
    subdomains(domain, events) {
      const entries = CORRECT.subdomains(domain, events)
      return entries.length === 0 ? entries : [...entries, { subdomain: `old.${domain}`, distinct_ips: 1, last_seen: '2023-01-01T00:00:00.000Z' }]
    },
  })
