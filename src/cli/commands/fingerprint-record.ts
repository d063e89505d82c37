/**
 * What `l9kit fingerprint` makes of one record: shared by the command's own loop and by its
 * worker threads (`--jobs`), so both write the same bytes.
 */
import { eventFingerprint } from '../../fingerprint/index.js'
import { guarded, isRecordError, type JsonRecord } from '../../jsonl/index.js'
import { describe } from '../../normalize/context.js'
import type { Issue } from '../../validate/issue.js'

/** The two inputs of the fingerprint; absent members count as empty, as in a normalised document. */
export function inputsOf(value: unknown): { source: string; summary: string } | Issue {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { code: 'not_object', pointer: '', message: 'the document must be a JSON object' }
  }
  const doc = value as Record<string, unknown>
  const source = Object.hasOwn(doc, 'event_source') ? doc.event_source : ''
  const summary = Object.hasOwn(doc, 'summary') ? doc.summary : ''
  for (const [name, v] of [['event_source', source], ['summary', summary]] as const) {
    if (typeof v !== 'string') return { code: 'wrong_type', pointer: `/${name}`, message: `expected string, found ${describe(v)}` }
  }
  return { source: source as string, summary: summary as string }
}

/** The fingerprint of one record (64 hex characters), or the issue that prevents it. */
export function fingerprintRecord(record: JsonRecord, version: 1 | 2): string | Issue {
  const parts = isRecordError(record) ? record.error : inputsOf(record.value)
  return 'code' in parts ? parts : guarded<string | Issue>(() => eventFingerprint(parts.source, parts.summary, version), (issue) => issue)
}
