/**
 * Validators of the event document (strict and lenient profiles) and of the API's shapes.
 * The schemas are compiled ahead of time (./compiled); a valid document costs one check.
 */
import type { DocumentName } from '../schema/documents.js'
import { compiledValidator } from './ajv.js'
import { documentReport } from './event-report.js'
import type { Report } from './issue.js'

export * from './issue.js'
export { jsonType, show } from './codes.js'
export { printable } from './printable.js'
export { notAnEvent } from './event-rule.js'
export { isStrictValid, validate, type ValidateOptions } from './event.js'
export { integerSpellingIssues } from './number-spelling.js'

/** Validates any published document shape (lookup result, subdomains, error body, …). */
export function validateDocument(name: DocumentName, data: unknown): Report {
  return documentReport(compiledValidator(name), data)
}
