/** One Ajv2020 instance and the compiled validators of every published schema, built once. */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { type DocumentName, schemaDocument } from '../schema/index.js'

let ajv: Ajv2020 | undefined
const compiled = new Map<string, ValidateFunction>()

function instance(): Ajv2020 {
  // allErrors: report every problem of a record at once; verbose: keep the data for "found".
  ajv ??= new Ajv2020({ allErrors: true, verbose: true, strict: true, unicodeRegExp: false })
  return ajv
}

let fast: Ajv2020 | undefined

/**
 * A fail-fast validator (stops at the first error): the verdict for the common, valid case.
 * The all-errors validator is run only to describe a document that failed.
 */
export function verdict(name: DocumentName): ValidateFunction {
  const key = `${name}#verdict`
  let fn = compiled.get(key)
  if (!fn) {
    fast ??= new Ajv2020({ allErrors: false, strict: true, unicodeRegExp: false })
    fn = fast.compile(schemaDocument(name))
    compiled.set(key, fn)
  }
  return fn
}

/** The compiled all-errors validator of a published schema document. */
export function compiledValidator(name: DocumentName): ValidateFunction {
  let fn = compiled.get(name)
  if (!fn) {
    fn = instance().compile(schemaDocument(name))
    compiled.set(name, fn)
  }
  return fn
}
