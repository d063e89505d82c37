/** Consistency: every subdomain listed for a domain has events in that domain's lookup. */
import { type Check, fail, pass, skip } from '../check.js'
import { knownAnswers } from './known.js'
import { lookupLists, nameKey, plural, problemAt, subdomainEntries, withinDomain } from './lib.js'

export const subdomainsHaveEvents: Check = {
  id: 'subdomains-have-events',
  description: 'Every subdomain listed for a domain has at least one event in GET /domain/:domain',
  spec: 'Endpoints: Subdomains and Domain details (information about the domain and its subdomains)',
  async run(ctx) {
    const answers = await knownAnswers(ctx)
    let judged = 0
    for (const { domain, response } of answers.subdomains) {
      const entries = subdomainEntries(ctx, response)
      const lookup = answers.domains.find((d) => d.domain === domain)
      const lists = lookup && lookupLists(ctx, lookup.response)
      if (!entries || !lists) continue
      const hosts = [...lists.Services, ...lists.Leaks].map((e) => (typeof e.host === 'string' ? nameKey(e.host) : ''))
      for (const [i, entry] of entries.entries()) {
        const name = nameKey(String(entry.subdomain))
        if (!withinDomain(name, domain)) continue // subdomains-of-domain reports it
        judged++
        if (!hosts.some((h) => h !== '' && withinDomain(h, name))) {
          return fail(problemAt(response, `/${i}/subdomain ${name} is listed, but GET /domain/${domain} has no event of it`))
        }
      }
    }
    if (judged === 0) return skip('no subdomain was listed (give --domain names the server holds)')
    return pass(plural(judged, 'subdomain'))
  },
}
