/**
 * Validating the event document (strict and lenient profiles). Only the event's own
 * validators are loaded here (compiled ahead of time), so a caller that validates events
 * does not pay for the other documents' code.
 */
import type { Profile } from '../schema/json-schema.js'
import { toIssues } from './codes.js'
import { notAnEvent } from './event-rule.js'
import checkStrict from './compiled/event.js'
import checkLenient from './compiled/event.lenient.js'
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

export interface ValidateOptions {
  profile?: Profile
}

/** The report of a document with nothing to say. */
export const EMPTY: Report = Object.freeze({ ok: true, errors: [], warnings: [] }) as Report

/** Validates an event document; strict also warns about unknown members and values. */
export function validate(doc: unknown, options: ValidateOptions = {}): Report {
  // An object with none of the format's members is not an event document (event-rule.ts).
  const notEvent = notAnEvent(doc)
  if (notEvent) return { ok: false, errors: [notEvent], warnings: [] }
  const strict = (options.profile ?? 'strict') === 'strict'
  const check = strict ? checkStrict : checkLenient
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

/** True when the document passes the strict profile (no report built). */
export function isStrictValid(doc: unknown): boolean {
  return checkStrict(doc)
}

/** The errors of a validator's last (failed) run, as issues. */
export function issuesOf(check: typeof checkStrict): Issue[] {
  return toIssues(check.errors ?? [])
}
