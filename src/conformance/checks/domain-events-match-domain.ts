/** A domain lookup returns only events of that domain or its subdomains (not look-alikes such as `notexample.com`). */
import fc from 'fast-check'
import { type Check, fail, pass, skip } from '../check.js'
import { domainPath, lookupLists, plural, problemAt, withinDomain } from './lib.js'

export const domainEventsMatchDomain: Check = {
  id: 'domain-events-match-domain',
  description: 'GET /domain/:domain returns only events whose `host` is the domain or ends with `.` + the domain',
  spec: 'Endpoints: Domain details; docs/service.md (the domain lookup)',
  async run(ctx) {
    const domains = ctx.known.domains
    if (domains.length === 0) return skip('no domain known (give --domain)')
    let events = 0
    const result = await ctx.property('domain-events-match-domain', fc.constantFrom(...domains), async (domain) => {
      const response = await ctx.get(domainPath(domain))
      const lists = lookupLists(ctx, response)
      if (!lists) return undefined
      for (const member of ['Services', 'Leaks'] as const) {
        for (const [i, event] of lists[member].entries()) {
          events++
          if (typeof event.host !== 'string' || !withinDomain(event.host, domain)) {
            return problemAt(response, `/${member}/${i} has host ${JSON.stringify(event.host)}, which is neither ${domain} nor below it`)
          }
        }
      }
      return undefined
    }, { examples: domains, runs: Math.min(ctx.maxExamples, domains.length) })
    if (!result.ok) return fail(result.problem, result.input, result.path)
    if (events === 0) return skip('the known domains have no events')
    return pass(`${plural(domains.length, 'domain')}, ${plural(events, 'event')}`)
  },
}
