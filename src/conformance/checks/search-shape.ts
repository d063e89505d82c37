/** GET /search answers page 0 of `*` in both scopes with a JSON array of event documents. */
import { type Check, fail, pass, skip } from '../check.js'
import { ownedElsewhere, plural, problemAt } from './lib.js'
import { SCOPES, searchAbsent, searchPage } from './search-lib.js'
import { validateDocument } from '../../validate/index.js'

export const searchShape: Check = {
  id: 'search-shape',
  description: 'GET /search?scope=service|leak&q=*&page=0 answers 200 with a JSON array of event documents (204 or an empty body: no events)',
  spec: "LeakIX's API: Operations beyond the three lookups (search)",
  async run(ctx) {
    const absent = await searchAbsent(ctx)
    if (absent !== null) return skip(absent)
    let events = 0
    for (const scope of SCOPES) {
      const page = await searchPage(ctx, scope, '*', 0)
      if (!page.ok) return fail(problemAt(page.response, `scope ${scope}, q=*: ${page.why}`))
      for (let i = 0; i < page.events.length; i++) {
        const issue = validateDocument('event', page.events[i]).errors.find((e) => !ownedElsewhere(e))
        if (issue) return fail(problemAt(page.response, `scope ${scope}, q=*: /${i}${issue.pointer}: ${issue.message}`))
      }
      events += page.events.length
    }
    return pass(plural(events, 'event'))
  },
}
