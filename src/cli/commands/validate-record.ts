/**
 * What `l9kit validate` prints for one record: shared by the command's own loop and by its
 * worker threads (`--jobs`), so both write the same bytes.
 */
import { guarded, isRecordError, type JsonRecord } from '../../jsonl/index.js'
import type { Profile } from '../../schema/json-schema.js'
import { validate as validateDoc } from '../../validate/event.js'
import type { Report } from '../../validate/issue.js'
import { issueLine, problemLine } from '../inputs.js'

export interface ValidateSettings {
  profile: Profile
  format: 'text' | 'json'
  showWarnings: boolean
}

/** The verdict on one record and the lines to print for it (none for a clean valid record). */
export function validateRecord(record: JsonRecord, file: string, settings: ValidateSettings): { ok: boolean; lines: string[] } {
  const report: Report = isRecordError(record)
    ? { ok: false, errors: [record.error], warnings: [] }
    : guarded(() => validateDoc(record.value, { profile: settings.profile }), (issue) => ({ ok: false, errors: [issue], warnings: [] }))
  const warnings = settings.showWarnings ? report.warnings : []
  if (report.ok && warnings.length === 0) return { ok: true, lines: [] }
  if (settings.format === 'json') {
    return { ok: report.ok, lines: report.ok ? [] : [JSON.stringify({ file, line: record.line, errors: report.errors, warnings })] }
  }
  const lines: string[] = []
  for (const issue of report.errors) lines.push(issueLine(file, record.line, issue))
  for (const issue of warnings) lines.push(problemLine(file, record.line, issue.pointer, `warning: ${issue.message}`))
  return { ok: report.ok, lines }
}
