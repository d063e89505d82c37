/**
 * Validators of the event document (strict and lenient profiles) and of the API's shapes.
 * The schemas are compiled once; a valid document costs one compiled check.
 */
import type { DocumentName, Profile } from '../schema/index.js'
import { compiledValidator, verdict } from './ajv.js'
import { toIssues } from './codes.js'
import type { Report } from './issue.js'
import { hasUnknownMembers, unknownMembers, unknownValues } from './warnings.js'

export * from './issue.js'
export { jsonType, show } from './codes.js'

export interface ValidateOptions {
  profile?: Profile
}

const EMPTY: Report = Object.freeze({ ok: true, errors: [], warnings: [] }) as Report

/** Validates an event document; strict also warns about unknown members and values. */
export function validate(doc: unknown, options: ValidateOptions = {}): Report {
  const profile = options.profile ?? 'strict'
  const name = profile === 'strict' ? 'event' : 'event.lenient'
  const ok = verdict(name)(doc)
  const errors = ok ? [] : describe(name, doc)
  if (profile === 'lenient') return ok ? EMPTY : { ok, errors, warnings: [] }
  // The count test needs a valid document (every required member present); others get the walk.
  const unknown = ok ? hasUnknownMembers(doc as Record<string, unknown>) : true
  const warnings = unknown ? [...unknownMembers(doc), ...unknownValues(doc)] : unknownValues(doc)
  if (ok && warnings.length === 0) return EMPTY
  return { ok, errors, warnings }
}

/** True when the document passes the strict profile (no report built). */
export function isStrictValid(doc: unknown): boolean {
  return verdict('event')(doc)
}

/** Validates any published document shape (lookup result, subdomains, error body, …). */
export function validateDocument(name: DocumentName, data: unknown): Report {
  if (verdict(name)(data)) return EMPTY
  return { ok: false, errors: describe(name, data), warnings: [] }
}

function describe(name: DocumentName, data: unknown) {
  const check = compiledValidator(name)
  check(data)
  return toIssues(check.errors ?? [])
}
