/** Every event of a bulk export satisfies its query (the query engine is the oracle). */
import { matches, parseQuery } from '../../query/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { BULK_NEEDS_STATE, bulkAnswer, scopeOf } from './bulk-lib.js'
import { plural, problemAt } from './lib.js'

type Obj = Record<string, unknown>
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

export const bulkMatches: Check = {
  id: 'bulk-matches',
  description: 'Every event a bulk export returns (each aggregation’s events, each /bulk/service line) matches the query asked, `-` terms included',
  spec: "LeakIX's API: The query language; Operations beyond the three lookups (bulk export)",
  needsState: BULK_NEEDS_STATE,
  async run(ctx) {
    const answer = await bulkAnswer(ctx)
    if (!answer.ok) return skip(answer.skip)
    let events = 0
    for (const read of answer.reads) {
      const query = parseQuery(read.q, { scope: scopeOf(read.route) })
      for (const [i, line] of read.lines.entries()) {
        const found = read.route === 'search' ? (isObject(line) && Array.isArray(line.events) ? line.events : []) : [line]
        for (const event of found) {
          events++
          if (!matches(query, event)) {
            const e = isObject(event) ? event : {}
            const what = `${String(e.event_type ?? '?')} event of ${String(e.event_source ?? '?')} on ${String(e.ip || e.host || '?')}:${String(e.port ?? '')}`
            return fail(problemAt(read.response, `line ${i + 1} of /bulk/${read.route}?q=${read.q} holds a ${what}, which the query does not match`))
          }
        }
      }
    }
    return pass(`${plural(answer.reads.length, 'export')}, ${plural(events, 'event')}`)
  },
}
