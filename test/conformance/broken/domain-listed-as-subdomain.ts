/** Broken: the subdomain list also names a look-alike that is not below the domain. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['subdomains-of-domain']
export const start = () =>
  startFake({
    subdomains(domain, events) {
      const entries = CORRECT.subdomains(domain, events)
      return entries.length === 0 ? entries : [...entries, { subdomain: `not${domain}`, distinct_ips: 1, last_seen: '2024-03-05T08:00:00.000Z' }]
    },
  })
