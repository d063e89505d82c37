/**
 * The bulk export judged with queries that can tell (telling.ts):
 * - bulk-partition: for an export read whole, `q +term` and `q -term` (a term some of its events
 *   satisfy and others not) together hold exactly its events, each once: a line missing from
 *   one answer, or one that is not the server's, shows (bulk-matches judges each line against
 *   its query, these two included);
 * - bulk-order: /bulk/service lines come newest first (by `time`, the kept observation's).
 */
import { type Check, fail, pass, skip } from '../check.js'
import { BULK_NEEDS_STATE, bulkAnswer, eventsOf, reread, whole } from './bulk-lib.js'
import { plural, problemAt } from './lib.js'
import { firstOutOfOrder, partitionProblem } from './telling.js'

export const bulkPartition: Check = {
  id: 'bulk-partition',
  description: 'An export read whole is split exactly by a term some of its events satisfy: q +term and q -term together hold its events, each once (both routes)',
  spec: "LeakIX's API: The query language, Operations beyond the three lookups (bulk export)",
  needsState: BULK_NEEDS_STATE,
  async run(ctx) {
    const answer = await bulkAnswer(ctx)
    if (!answer.ok) return skip(answer.skip)
    let judged = 0
    for (const split of answer.splits) {
      let reads = split.reads
      if (!reads.every(whole)) continue
      const names = reads.map((r) => `/bulk/${r.route}?q=${r.q}`) as [string, string, string]
      let problem = partitionProblem(eventsOf(reads[0]), eventsOf(reads[1]), eventsOf(reads[2]), names)
      if (problem !== undefined) {
        // Once more, in case the server's data changed between the three reads.
        reads = [await reread(ctx, reads[0]), await reread(ctx, reads[1]), await reread(ctx, reads[2])]
        problem = reads.every(whole) ? partitionProblem(eventsOf(reads[0]), eventsOf(reads[1]), eventsOf(reads[2]), names) : undefined
        if (problem !== undefined) return fail(problemAt(reads[0].response, `${problem} (read twice)`))
      }
      judged++
    }
    if (judged === 0) return skip('no export was read whole with a term that splits it (give --ip names the server holds a few events for)')
    return pass(plural(judged, 'split'))
  },
}

export const bulkOrder: Check = {
  id: 'bulk-order',
  description: 'The lines of GET /bulk/service come newest first (by time)',
  spec: 'docs/service.md: Bulk export (newest first)',
  needsState: BULK_NEEDS_STATE,
  async run(ctx) {
    const answer = await bulkAnswer(ctx)
    if (!answer.ok) return skip(answer.skip)
    let judged = 0
    for (const read of answer.reads) {
      if (read.route !== 'service') continue
      const events = eventsOf(read)
      const at = firstOutOfOrder(events)
      if (at !== -1) return fail(problemAt(read.response, `line ${at + 1} of /bulk/service?q=${read.q} (time ${String(events[at]!.time)}) is newer than line ${at} (${String(events[at - 1]!.time)})`))
      judged += events.length
    }
    if (judged < 2) return skip('no /bulk/service export had two lines to compare')
    return pass(plural(judged, 'line'))
  },
}
