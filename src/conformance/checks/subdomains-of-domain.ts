/** The subdomains lookup lists only names below the domain. */
import { type Check, fail, pass, skip } from '../check.js'
import { nameKey, plural, problemAt, withinDomain } from './lib.js'
import { listedEntries } from './subdomain-entries.js'

export const subdomainsOfDomain: Check = {
  id: 'subdomains-of-domain',
  description: 'Every `subdomain` listed for a domain is a name below it (ends with `.` + the domain)',
  spec: 'Endpoints: Subdomains; Resources: Subdomain entry',
  async run(ctx) {
    const listed = await listedEntries(ctx)
    for (const { domain, index, entry, response } of listed) {
      const name = String(entry.subdomain)
      if (!withinDomain(name, domain) || nameKey(name) === nameKey(domain)) {
        return fail(problemAt(response, `/${index}/subdomain is ${JSON.stringify(name)}, which is not a subdomain of ${domain}`))
      }
    }
    if (listed.length === 0) return skip('no subdomain was listed (give --domain names the server holds)')
    return pass(plural(listed.length, 'entry', 'entries'))
  },
}
