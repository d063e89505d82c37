/**
 * The report on an event document, given the compiled validator of its profile: the one rule
 * of what an event is (event-rule.ts), the validator's errors as issues, and for the strict
 * profile the warnings. Shared by the library's `validate()`, which holds both profiles'
 * validators, and the CLI, which loads only the one it uses (load-judge.ts).
 */
import type { ValidateFunction } from 'ajv'
import { toIssues } from './codes.js'
import { notAnEvent } from './event-rule.js'
import type { Issue, Report } from './issue.js'
import { hasUnknownMembers, unknownMembers, unknownValues } from './warnings.js'
import { encodeRaw, isBase64 } from '../normalize/base64.js'

/** Lenient: `service.credentials.raw` that is not base64 is accepted, and reported with what normalize writes instead. */
function rawWarning(doc: unknown): Issue | undefined {
  const at = (node: unknown, name: string): unknown => (typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>)[name] : undefined)
  const raw = at(at(at(doc, 'service'), 'credentials'), 'raw')
  if (typeof raw !== 'string' || raw === '' || isBase64(raw)) return undefined
  const { message } = encodeRaw(raw)
  return message === undefined ? undefined : { code: 'bad_base64', pointer: '/service/credentials/raw', message, expected: 'standard base64 text', found: raw }
}

/** The report of a document with nothing to say. */
export const EMPTY: Report = Object.freeze({ ok: true, errors: [], warnings: [] }) as Report

/** The errors of a validator's last (failed) run, as issues. */
export function issuesOf(check: ValidateFunction): Issue[] {
  return toIssues(check.errors ?? [])
}

/** Validates an event document with `check` (the strict or the lenient validator); strict also warns about unknown members and values, lenient about `credentials.raw` that is not base64. */
export function eventReport(check: ValidateFunction, strict: boolean, doc: unknown): Report {
  // An object with none of the format's members is not an event document (event-rule.ts).
  const notEvent = notAnEvent(doc)
  if (notEvent) return { ok: false, errors: [notEvent], warnings: [] }
  const ok = check(doc)
  const errors = ok ? [] : issuesOf(check)
  if (!strict) {
    const raw = rawWarning(doc)
    if (raw !== undefined) return { ok, errors, warnings: [raw] }
    return ok ? EMPTY : { ok, errors, warnings: [] }
  }
  // The count test needs a valid document (every required member present); others get the walk.
  const unknown = ok ? hasUnknownMembers(doc as Record<string, unknown>) : true
  const warnings = unknown ? [...unknownMembers(doc), ...unknownValues(doc)] : unknownValues(doc)
  if (ok && warnings.length === 0) return EMPTY
  return { ok, errors, warnings }
}

/** Validates any other published document with its validator: its errors, no warnings. */
export function documentReport(check: ValidateFunction, data: unknown): Report {
  if (check(data)) return EMPTY
  return { ok: false, errors: issuesOf(check), warnings: [] }
}
