/**
 * Validators of the event document (strict and lenient profiles) and of the API's shapes.
 * The schemas are compiled once; a valid document costs one compiled check.
 */
import type { DocumentName, Profile } from '../schema/index.js'
import { closedValidator, compiledValidator } from './ajv.js'
import { toIssues } from './codes.js'
import type { Report } from './issue.js'
import { unknownMembers, unknownValues } from './warnings.js'

export * from './issue.js'
export { jsonType, show } from './codes.js'

export interface ValidateOptions {
  profile?: Profile
}

const EMPTY: Report = Object.freeze({ ok: true, errors: [], warnings: [] }) as Report

/** Validates an event document; strict also warns about unknown members and values. */
export function validate(doc: unknown, options: ValidateOptions = {}): Report {
  const profile = options.profile ?? 'strict'
  const check = compiledValidator(profile === 'strict' ? 'event' : 'event.lenient')
  const ok = check(doc)
  const errors = ok ? [] : toIssues(check.errors ?? [])
  if (profile === 'lenient') return ok ? EMPTY : { ok, errors, warnings: [] }
  const warnings = closedValidator('event')(doc) ? unknownValues(doc) : [...unknownMembers(doc), ...unknownValues(doc)]
  if (ok && warnings.length === 0) return EMPTY
  return { ok, errors, warnings }
}

/** True when the document passes the strict profile (no report built). */
export function isStrictValid(doc: unknown): boolean {
  return compiledValidator('event')(doc)
}

/** Validates any published document shape (lookup result, subdomains, error body, …). */
export function validateDocument(name: DocumentName, data: unknown): Report {
  const check = compiledValidator(name)
  if (check(data)) return EMPTY
  return { ok: false, errors: toIssues(check.errors ?? []), warnings: [] }
}
