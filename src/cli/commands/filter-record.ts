/**
 * What `l9kit filter` makes of one record: shared by the command's own loop and by its worker
 * threads (`--jobs`), so both judge alike. A document is judged as the service would store it:
 * normalised (lenient → canonical, an empty fingerprint computed), then matched by the query
 * engine; one that cannot be normalised is reported, not matched.
 */
import { isRecordError, type JsonRecord, guarded } from '../../jsonl/index.js'
import { isCanonical, normalize, resolveOptions } from '../../normalize/index.js'
import { matches, type Query } from '../../query/index.js'
import type { Issue } from '../../validate/issue.js'

const OPTIONS = resolveOptions({ fingerprint: 'missing' })

/** True when the record's document matches; the issues when it cannot be read or normalised. */
export function filterRecord(record: JsonRecord, query: Query): boolean | Issue[] {
  if (isRecordError(record)) return [record.error]
  return guarded<boolean | Issue[]>(
    () => {
      const value = record.value
      if (isCanonical(value, OPTIONS)) return matches(query, value)
      const result = normalize(value, OPTIONS)
      return result.ok ? matches(query, result.event) : result.errors
    },
    (issue) => [issue],
  )
}

/** The record's text as given (an element of a multi-line array has none: its compact JSON). */
export const recordText = (record: JsonRecord): string => (record.text !== '' || isRecordError(record) ? record.text : JSON.stringify(record.value))
