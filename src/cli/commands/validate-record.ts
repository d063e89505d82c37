/**
 * What `l9kit validate` prints for one record: shared by the command's own loop and by its
 * worker threads (`--jobs`), so both write the same bytes.
 */
import { guarded, invalidUtf8Issue, isRecordError, type JsonRecord } from '../../jsonl/index.js'
import type { DocumentName } from '../../schema/documents.js'
import type { Profile } from '../../schema/json-schema.js'
import { DOCUMENTS } from '../../validate/compiled/load.js'
import { type Judge, loadJudge } from '../../validate/load-judge.js'
import { integerSpellingIssues } from '../../validate/number-spelling.js'
import type { Report } from '../../validate/issue.js'
import { issueLine, problemLine } from '../inputs.js'

export interface ValidateSettings {
  profile: Profile
  format: 'text' | 'json'
  showWarnings: boolean
  /** `--array`: a JSON text that is an array is a list of documents (docs/validate.md). */
  arrays: boolean
  /** json format: also an object for a valid record with warnings (for the junit and sarif reports). */
  warningRecords?: boolean
  /** `--document`: the published document each record is judged as (default `event`). */
  document?: DocumentName
}

/**
 * The documents `--document` names: each published one, its lenient twin chosen by `--profile`.
 * (The generated list, not the schema registry, which would load the TypeBox definitions.)
 */
export const VALIDATED_DOCUMENTS = DOCUMENTS.filter((name) => !name.endsWith('.lenient'))

/** The schema document a record is judged against: `NAME.lenient` under the lenient profile when there is one. */
export function documentFor(settings: ValidateSettings): DocumentName {
  const name = settings.document ?? 'event'
  const lenient = `${name}.lenient` as DocumentName
  return settings.profile === 'lenient' && DOCUMENTS.includes(lenient) ? lenient : name
}

/**
 * What judges each record under `settings`: an event through its profile (with warnings), any
 * other document through its schema. Only that document's validator is loaded.
 */
export const judgeFor = (settings: ValidateSettings): Promise<Judge> => loadJudge(documentFor(settings))

/**
 * The documents of one record: the record itself, or with `--array` each element of a JSON Lines
 * line holding an array (a multi-line array is already split by readRecords, whose element
 * records carry no text, so an element that is itself an array is judged, not split again).
 */
export function documentsOf(record: JsonRecord, settings: ValidateSettings): JsonRecord[] {
  if (!settings.arrays || isRecordError(record) || record.text === '' || !Array.isArray(record.value)) return [record]
  return record.value.map((value: unknown) => ({ line: record.line, offset: record.offset, text: '', value }))
}

const ARRAY_HINT = ' (a JSON array: --array judges each element as a document)'

/** The verdict on one record (judged by `judgeFor(settings)`) and the lines to print for it (none for a clean valid record). */
export function validateRecord(record: JsonRecord, file: string, settings: ValidateSettings, judge: Judge): { ok: boolean; lines: string[] } {
  let report: Report = isRecordError(record)
    ? { ok: false, errors: [record.error], warnings: [] }
    : guarded(() => judge(record.value), (issue) => ({ ok: false, errors: [issue], warnings: [] }))
  // What JSON.parse hides: an integer member written 200.0 or 2e2 (the record's text is needed).
  if (settings.profile === 'strict' && !isRecordError(record) && record.text !== '') {
    const spelled = integerSpellingIssues(record.text)
    if (spelled.length > 0) report = { ok: false, errors: [...report.errors, ...spelled], warnings: report.warnings }
  }
  // Bytes that were not UTF-8 (read as U+FFFD): canonical text is UTF-8; lenient reads them as normalize does, and says so.
  if (!isRecordError(record) && record.invalidUtf8) {
    report = settings.profile === 'strict' ? { ok: false, errors: [...report.errors, invalidUtf8Issue()], warnings: report.warnings } : { ...report, warnings: [invalidUtf8Issue(), ...report.warnings] }
  }
  if (!settings.arrays && !isRecordError(record) && Array.isArray(record.value)) {
    report = { ...report, errors: report.errors.map((e) => (e.code === 'not_object' ? { ...e, message: e.message + ARRAY_HINT } : e)) }
  }
  const warnings = settings.showWarnings ? report.warnings : []
  if (report.ok && warnings.length === 0) return { ok: true, lines: [] }
  if (settings.format === 'json') {
    const json = JSON.stringify({ file, line: record.line, errors: report.errors, warnings })
    return { ok: report.ok, lines: report.ok && !settings.warningRecords ? [] : [json] }
  }
  const lines: string[] = []
  for (const issue of report.errors) lines.push(issueLine(file, record.line, issue))
  for (const issue of warnings) lines.push(problemLine(file, record.line, issue.pointer, `warning: ${issue.message}`))
  return { ok: report.ok, lines }
}
