/**
 * Validators of the event document (strict and lenient profiles) and of the API's shapes.
 * The schemas are compiled ahead of time (./compiled); a valid document costs one check.
 */
import type { DocumentName } from '../schema/documents.js'
import { compiledValidator } from './ajv.js'
import { EMPTY, issuesOf } from './event.js'
import type { Report } from './issue.js'

export * from './issue.js'
export { jsonType, show } from './codes.js'
export { printable } from './printable.js'
export { notAnEvent } from './event-rule.js'
export { isStrictValid, validate, type ValidateOptions } from './event.js'
export { integerSpellingIssues } from './number-spelling.js'

/** Validates any published document shape (lookup result, subdomains, error body, …). */
export function validateDocument(name: DocumentName, data: unknown): Report {
  const check = compiledValidator(name)
  if (check(data)) return EMPTY
  return { ok: false, errors: issuesOf(check), warnings: [] }
}
