/** `filter` on a worker thread: counts are [matched, invalid]; matching lines to stdout as given, problems to stderr. */
import { recordsOf } from '../../../jsonl/index.js'
import { parseQuery } from '../../../query/index.js'
import { canonicalJudge, type CanonicalJudge } from '../../commands/filter-canonical.js'
import { filterDocuments, judgedText } from '../../commands/filter-record.js'
import { issueLine } from '../../inputs.js'
import type { BlockLineItem, JobFactory, JobOutput } from '../types.js'

export interface FilterJobSettings {
  /** The query text (checked by the command already) and its scope. */
  query: string
  scope: 'service' | 'leak' | 'any'
}

const NO_EDITS: readonly [] = []

/** Writes a matching line's own bytes when it is valid UTF-8 (the output is the input byte for byte); false when it has none. */
function pushBytes(item: BlockLineItem, out: JobOutput): boolean {
  const stdout = out.streams[0]!
  if (!('bytes' in item) || !item.bytes || !stdout.pushFrom) return false
  stdout.pushFrom(item.bytes, item.text, NO_EDITS)
  return true
}

export const create: JobFactory = (setup) => {
  const settings = setup.settings as FilterJobSettings
  const query = parseQuery(settings.query, { scope: settings.scope })
  // Built on the first line: workers run on large inputs only, where it pays at once.
  let canonical: CanonicalJudge | undefined
  return {
    line(item, out) {
      // A canonical line: only the members the query reads are parsed (filter-canonical.ts).
      if (!('error' in item) && !item.element) {
        const verdict = (canonical ??= canonicalJudge(query))(item.text)
        if (verdict !== undefined) {
          if (verdict) {
            if (!pushBytes(item, out)) out.streams[0]!.push(item.text)
            out.counts[0]!++
          }
          return
        }
      }
      // As readRecords() reads a line: one record, or one per value of a line holding several.
      for (const record of recordsOf(item)) {
        for (const judged of filterDocuments(record, query)) {
          const { verdict } = judged
          if (verdict === true) {
            // The line's own bytes only when the record is the whole line.
            if (judged.element || record.text !== item.text || !pushBytes(item, out)) out.streams[0]!.push(judgedText(record, judged))
            out.counts[0]!++
          } else if (verdict !== false) {
            out.counts[1]!++
            for (const issue of verdict) out.streams[1]!.push(issueLine(setup.file, record.line, issue))
          }
        }
      }
    },
  }
}
