/** Broken: a domain lookup matches by suffix, so `example.com` also returns `notexample.com`. */
import { startFake } from '../fake/server.js'

export const meant = ['domain-events-match-domain']
export const start = () => startFake({ domainEvents: (domain, events) => events.filter((e) => e.host.endsWith(domain)) })
