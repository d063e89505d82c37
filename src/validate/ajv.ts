/**
 * The validators of every published schema document, compiled ahead of time by `npm run
 * generate` into ./compiled (ajv's standalone code): nothing is compiled at run time.
 */
import type { ValidateFunction } from 'ajv'
import type { DocumentName } from '../schema/documents.js'
import { validators } from './compiled/index.js'

/** The validator of a published schema document: all errors, each with its data. */
export function compiledValidator(name: DocumentName): ValidateFunction {
  return validators[name]
}
