/**
 * Validating the event document (strict and lenient profiles). Only the event's own
 * validators are loaded here (compiled ahead of time), so a caller that validates events
 * does not pay for the other documents' code.
 */
import type { Profile } from '../schema/json-schema.js'
import checkStrict from './compiled/event.js'
import checkLenient from './compiled/event.lenient.js'
import { EMPTY, eventReport, issuesOf } from './event-report.js'
import type { Report } from './issue.js'

export interface ValidateOptions {
  profile?: Profile
}

export { EMPTY, issuesOf }

/** Validates an event document; strict also warns about unknown members and values. */
export function validate(doc: unknown, options: ValidateOptions = {}): Report {
  const strict = (options.profile ?? 'strict') === 'strict'
  return eventReport(strict ? checkStrict : checkLenient, strict, doc)
}

/** True when the document passes the strict profile (no report built). */
export function isStrictValid(doc: unknown): boolean {
  return checkStrict(doc)
}
