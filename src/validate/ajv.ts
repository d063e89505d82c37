/** One Ajv2020 instance and the compiled validators of every published schema, built once. */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { type DocumentName, type JsonSchema, schemaDocument } from '../schema/index.js'

let ajv: Ajv2020 | undefined
const compiled = new Map<string, ValidateFunction>()

function instance(): Ajv2020 {
  // allErrors: report every problem of a record at once; verbose: keep the data for "found".
  ajv ??= new Ajv2020({ allErrors: true, verbose: true, strict: true, unicodeRegExp: false })
  return ajv
}

/** The compiled validator of a published schema document. */
export function compiledValidator(name: DocumentName): ValidateFunction {
  let fn = compiled.get(name)
  if (!fn) {
    fn = instance().compile(schemaDocument(name))
    compiled.set(name, fn)
  }
  return fn
}

/** A closed variant (no members beyond the known ones): a fast test for unknown members. */
export function closedValidator(name: DocumentName): ValidateFunction {
  const key = `${name}#closed`
  let fn = compiled.get(key)
  if (!fn) {
    const doc = close(structuredClone(schemaDocument(name)))
    doc.$id = String(doc.$id).replace(/\.schema\.json$/, ".closed.schema.json")
    fn = instance().compile(doc)
    compiled.set(key, fn)
  }
  return fn
}

function close(node: JsonSchema): JsonSchema {
  if (node.properties && node.additionalProperties === undefined) node.additionalProperties = false
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) value.forEach((v) => typeof v === 'object' && v !== null && close(v as JsonSchema))
    else if (typeof value === 'object' && value !== null) close(value as JsonSchema)
  }
  return node
}
