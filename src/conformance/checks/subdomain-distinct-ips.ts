/** `distinct_ips` is a positive integer: a listed name was seen on at least one address. */
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt } from './lib.js'
import { listedEntries } from './subdomain-entries.js'

export const subdomainDistinctIps: Check = {
  id: 'subdomain-distinct-ips',
  description: '`distinct_ips` of every subdomain entry is a positive integer',
  spec: 'Resources: Subdomain entry',
  async run(ctx) {
    const listed = await listedEntries(ctx)
    for (const { index, entry, response } of listed) {
      const n = entry.distinct_ips
      if (!(typeof n === 'number' && Number.isInteger(n) && n >= 1)) {
        return fail(problemAt(response, `/${index}/distinct_ips is ${JSON.stringify(n)}, not a positive integer`))
      }
    }
    if (listed.length === 0) return skip('no subdomain was listed (give --domain names the server holds)')
    return pass(plural(listed.length, 'entry', 'entries'))
  },
}
