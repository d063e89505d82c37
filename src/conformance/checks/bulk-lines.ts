/** Every line of GET /bulk/search is an aggregation, every line of GET /bulk/service an event document. */
import { validateDocument } from '../../validate/index.js'
import { type Check, fail, pass, skip } from '../check.js'
import { BULK_NEEDS_STATE, bulkAnswer } from './bulk-lib.js'
import { ownedElsewhere, plural, problemAt } from './lib.js'

export const bulkLines: Check = {
  id: 'bulk-lines',
  description: 'GET /bulk/search answers JSON Lines of aggregation documents, GET /bulk/service of event documents (200 application/x-ndjson, or 204 with none)',
  spec: "LeakIX's API: Operations beyond the three lookups (bulk export), Aggregation",
  needsState: BULK_NEEDS_STATE,
  async run(ctx) {
    const answer = await bulkAnswer(ctx)
    if (!answer.ok) return skip(answer.skip)
    let lines = 0
    for (const read of answer.reads) {
      const { response } = read
      if (response.status === 204) continue
      if (response.status !== 200) return fail(problemAt(response, `GET /bulk/${read.route}?q=${read.q} answered ${response.status}, not 200 or 204`))
      const type = (response.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase()
      if (type !== 'application/x-ndjson' && type !== 'application/jsonl' && type !== 'application/json') {
        return fail(problemAt(response, `a bulk answer has content-type ${response.headers['content-type'] ?? '(none)'}, not application/x-ndjson`))
      }
      if (read.error) return fail(problemAt(response, read.error.message))
      const shape = read.route === 'search' ? 'aggregation' : 'event'
      for (const [i, line] of read.lines.entries()) {
        const issues = validateDocument(shape, line).errors.filter((issue) => !ownedElsewhere(issue))
        if (issues.length > 0) return fail(problemAt(response, `line ${i + 1} of /bulk/${read.route}?q=${read.q} is not ${shape === 'event' ? 'an event' : 'an aggregation'}: ${issues[0]!.pointer || '(line)'}: ${issues[0]!.message}`))
        lines++
      }
    }
    return pass(`${plural(answer.reads.length, 'export')}, ${plural(lines, 'line')}`)
  },
}
