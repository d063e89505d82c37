/** Broken: `distinct_ips` is 0 for names whose events carry no address count. */
import { CORRECT, startFake } from '../fake/server.js'

export const meant = ['subdomain-distinct-ips']
export const start = () => startFake({ subdomains: (domain, events) => CORRECT.subdomains(domain, events).map((e) => ({ ...e, distinct_ips: 0 })) })
