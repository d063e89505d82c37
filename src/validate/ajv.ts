/** One Ajv2020 instance and the compiled validators of every published schema, built once. */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { type DocumentName, type JsonSchema, schemaDocument } from '../schema/index.js'

let ajv: Ajv2020 | undefined
// Shape-only schemas have keywords without `type` on purpose: a separate, non-strict instance.
let shapes: Ajv2020 | undefined
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

/**
 * A shape-only, closed variant: member names and nothing else (no types, no patterns), so
 * testing for unknown members costs a fraction of a full validation.
 */
export function closedValidator(name: DocumentName): ValidateFunction {
  const key = `${name}#closed`
  let fn = compiled.get(key)
  if (!fn) {
    const full = schemaDocument(name)
    const doc = shape(full)
    doc.$id = String(full.$id).replace(/\.schema\.json$/, '.closed.schema.json')
    shapes ??= new Ajv2020({ allErrors: false, strict: false })
    fn = shapes.compile(doc)
    compiled.set(key, fn)
  }
  return fn
}

function shape(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {}
  if (node.$ref) out.$ref = node.$ref
  if (node.properties) {
    const props: JsonSchema = {}
    for (const [member, sub] of Object.entries(node.properties as Record<string, JsonSchema>)) props[member] = shape(sub)
    out.properties = props
    out.additionalProperties = false
  }
  if (node.items) out.items = shape(node.items as JsonSchema)
  if (node.anyOf) {
    const objects = (node.anyOf as JsonSchema[]).filter((alt) => alt.properties || alt.items || alt.$ref)
    if (objects.length === 1) Object.assign(out, shape(objects[0]!))
  }
  if (node.$defs) {
    const defs: JsonSchema = {}
    for (const [def, sub] of Object.entries(node.$defs as Record<string, JsonSchema>)) defs[def] = shape(sub)
    out.$defs = defs
  }
  return out
}
