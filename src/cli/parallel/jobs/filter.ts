/** `filter` on a worker thread: counts are [matched, invalid]; matching lines to stdout as given, problems to stderr. */
import { fromLine } from '../../../jsonl/index.js'
import { parseQuery } from '../../../query/index.js'
import { filterDocuments, judgedText } from '../../commands/filter-record.js'
import { issueLine } from '../../inputs.js'
import type { JobFactory } from '../types.js'

export interface FilterJobSettings {
  /** The query text (checked by the command already) and its scope. */
  query: string
  scope: 'service' | 'leak' | 'any'
}

const NO_EDITS: readonly [] = []

export const create: JobFactory = (setup) => {
  const settings = setup.settings as FilterJobSettings
  const query = parseQuery(settings.query, { scope: settings.scope })
  return {
    line(item, out) {
      const record = fromLine(item) // as readRecords() reads a JSON Lines line
      for (const judged of filterDocuments(record, query)) {
        const { verdict } = judged
        if (verdict === true) {
          // The line's own bytes when it is valid UTF-8, so the output is the input byte for byte.
          const stdout = out.streams[0]!
          if (!judged.element && 'bytes' in item && item.bytes && stdout.pushFrom) stdout.pushFrom(item.bytes, item.text, NO_EDITS)
          else stdout.push(judgedText(record, judged))
          out.counts[0]!++
        } else if (verdict !== false) {
          out.counts[1]!++
          for (const issue of verdict) out.streams[1]!.push(issueLine(setup.file, record.line, issue))
        }
      }
    },
  }
}
