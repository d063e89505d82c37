/** `last_seen` is UTC with exactly three fraction digits and `Z`. */
import { TIME_MILLIS } from '../../schema/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { plural, problemAt } from './lib.js'
import { listedEntries } from './subdomain-entries.js'

const MILLIS = new RegExp(TIME_MILLIS)

export const subdomainLastSeen: Check = {
  id: 'subdomain-last-seen',
  description: '`last_seen` of every subdomain entry is a UTC time with millisecond fraction and `Z` (2023-01-02T03:04:05.678Z)',
  spec: 'Resources: Subdomain entry',
  async run(ctx) {
    const listed = await listedEntries(ctx)
    for (const { index, entry, response } of listed) {
      if (typeof entry.last_seen !== 'string' || !MILLIS.test(entry.last_seen)) {
        return fail(problemAt(response, `/${index}/last_seen is ${JSON.stringify(entry.last_seen)}, not like 2023-01-02T03:04:05.678Z`))
      }
    }
    if (listed.length === 0) return skip('no subdomain was listed (give --domain names the server holds)')
    return pass(plural(listed.length, 'entry', 'entries'))
  },
}
