/**
 * What `l9kit filter` makes of one record: shared by the command's own loop and by its worker
 * threads (`--jobs`), so both judge alike. A document is judged as the service would store it:
 * normalised (lenient → canonical, an empty fingerprint computed), then matched by the query
 * engine; one that cannot be normalised is reported, not matched. A line holding a JSON array
 * is judged element by element, as the service's ingest stores it.
 */
import { isRecordError, type JsonRecord, guarded } from '../../jsonl/index.js'
import { isCanonical, normalize, resolveOptions } from '../../normalize/index.js'
import { matches, type Query } from '../../query/index.js'
import type { Issue } from '../../validate/issue.js'

const OPTIONS = resolveOptions({ fingerprint: 'missing' })

/** True when the document matches; the issues when it cannot be normalised. */
function judge(value: unknown, query: Query): boolean | Issue[] {
  return guarded<boolean | Issue[]>(
    () => {
      if (isCanonical(value, OPTIONS)) return matches(query, value)
      const result = normalize(value, OPTIONS)
      return result.ok ? matches(query, result.event) : result.errors
    },
    (issue) => [issue],
  )
}

/** True when the record's document matches; the issues when it cannot be read or normalised. */
function filterRecord(record: JsonRecord, query: Query): boolean | Issue[] {
  if (isRecordError(record)) return [record.error]
  return judge(record.value, query)
}

/** One document of a record: its verdict, and the element it is when the record is an array. */
export interface Judged {
  verdict: boolean | Issue[]
  /** Set for an element of a line holding an array: it is printed as its compact JSON. */
  element?: { value: unknown }
}

/**
 * The documents of one record, judged: the record itself, or each element of a line that holds
 * a JSON array (its problems' pointers start with the element's index).
 */
export function filterDocuments(record: JsonRecord, query: Query): Judged[] {
  // An element of an array spread over lines (no text of its own) is a document, whatever it holds.
  if (isRecordError(record) || record.text === '' || !Array.isArray(record.value)) return [{ verdict: filterRecord(record, query) }]
  return record.value.map((value: unknown, i) => {
    const verdict = judge(value, query)
    return { verdict: typeof verdict === 'boolean' ? verdict : verdict.map((issue) => ({ ...issue, pointer: `/${i}${issue.pointer}` })), element: { value } }
  })
}

/** The text to print for a matching document: the record's as given, an element's compact JSON. */
export const judgedText = (record: JsonRecord, judged: Judged): string => (judged.element ? JSON.stringify(judged.element.value) : recordText(record))

/** The record's text as given (an element of a multi-line array has none: its compact JSON). */
export const recordText = (record: JsonRecord): string => (record.text !== '' || isRecordError(record) ? record.text : JSON.stringify(record.value))
