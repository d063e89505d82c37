/**
 * Turns the TypeBox definitions into standalone JSON Schema draft 2020-12 documents:
 * named parts become `$defs` entries referenced by `$ref`, TypeBox's record form becomes
 * `additionalProperties`, and the lenient profile is derived from the strict one by rules.
 */
import {
  BASE64,
  BOOLEAN_STRING,
  FINGERPRINT,
  FINGERPRINT_LENIENT,
  INTEGER_STRING,
  NOT_PRINTABLE,
  NUMBER_STRING,
  PORT,
  PORT_LENIENT,
  TIME_CANONICAL,
  TIME_LENIENT,
} from './patterns.js'
import { SCHEMA_VERSION } from './version.js'

export type JsonSchema = { [key: string]: unknown }
export type Profile = 'strict' | 'lenient'

export const DIALECT = 'https://json-schema.org/draft/2020-12/schema'
/** Base of every document's `$id`; it carries the schema version, so each release has its own ids. */
export const ID_BASE = `https://l9kit.dev/schema/${SCHEMA_VERSION}/`

export interface DocumentSpec {
  file: string
  title: string
  description: string
  root: object
  /** Sub-schemas to lift into `$defs`, by name; matched by identity inside `root`. */
  parts: Record<string, object>
  profile: Profile
  /**
   * Lenient profile only: per object (a TypeBox node of `root` or `parts`), the members whose
   * `null` means absent and whose booleans and integers may also come as text (relaxOptional).
   */
  lenientOptional?: ReadonlyMap<object, readonly string[]>
}

/** Builds one schema document. Deterministic: the same definitions give the same bytes. */
export function toDocument(spec: DocumentSpec): JsonSchema {
  const names = new Map<object, string>(Object.entries(spec.parts).map(([name, part]) => [part, name]))
  const lenient = spec.profile === 'lenient'
  const finish = (node: JsonSchema, source: object) => (lenient ? relax(node, false, spec.lenientOptional?.get(source)) : node)
  const defs: JsonSchema = {}
  for (const [name, part] of Object.entries(spec.parts)) defs[name] = finish(plain(part, names, part), part)
  // The lenient forms of the protocol objects' members, each written once and referenced.
  if (lenient && spec.lenientOptional) Object.assign(defs, LENIENT_MEMBER_DEFS)
  const body = finish(plain(spec.root, names, undefined), spec.root)
  const { title: _t, description: _d, ...rest } = body
  return {
    $schema: DIALECT,
    $id: ID_BASE + spec.file,
    title: spec.title,
    description: spec.description,
    ...rest,
    $defs: defs,
  }
}

/** A JSON copy of a TypeBox node, with known parts replaced by references. */
function plain(node: unknown, names: Map<object, string>, self: object | undefined): JsonSchema {
  if (node !== self && typeof node === 'object' && node !== null && names.has(node)) {
    return { $ref: `#/$defs/${names.get(node)}` }
  }
  const out: JsonSchema = {}
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (key === 'patternProperties') {
      // TypeBox writes Record(String, X) as patternProperties {"^.*$": X}; a plain map reads better.
      const [only] = Object.values(value as JsonSchema)
      out.additionalProperties = plain(only, names, self)
    } else if (key === 'properties') {
      const props: JsonSchema = {}
      for (const [name, prop] of Object.entries(value as JsonSchema)) props[name] = plain(prop, names, self)
      out.properties = props
    } else if (key === 'items') {
      out.items = plain(value, names, self)
    } else if (key === 'anyOf') {
      out.anyOf = (value as unknown[]).map((alt) => plain(alt, names, self))
    } else if (key === 'pattern') {
      Object.assign(out, patterned(value as string))
    } else {
      out[key] = structuredClone(value)
    }
  }
  return out
}

/**
 * A pattern with its guard: `$` cannot be trusted in Python's or Java's engine (patterns.ts), so
 * characters outside printable ASCII are refused by a `not` that every engine reads alike.
 */
export const patterned = (pattern: string): JsonSchema => ({ pattern, not: { pattern: NOT_PRINTABLE } })

const describe = (node: JsonSchema) => {
  const out: JsonSchema = {}
  if (node.title !== undefined) out.title = node.title
  if (node.description !== undefined) out.description = node.description
  return out
}
const bare = (node: JsonSchema) => {
  const { title: _t, description: _d, ...rest } = node
  return rest
}

/**
 * The lenient profile: what real tools emit. Members may be missing, arrays and maps may
 * be null, numbers may come as numeric strings, times may carry any offset, and `port`
 * may be a number. Applied to the strict profile, node by node.
 */
export function relax(node: JsonSchema, inNullable = false, optional?: readonly string[]): JsonSchema {
  if (node.$ref) return node
  if (Array.isArray(node.anyOf)) {
    const nullable = node.anyOf.some((alt) => (alt as JsonSchema).type === 'null')
    return { ...node, anyOf: node.anyOf.map((alt) => relax(alt as JsonSchema, nullable)) }
  }
  const nullOr = (schema: JsonSchema) =>
    inNullable ? schema : { ...describe(node), anyOf: [bare(schema), { type: 'null' }] }
  switch (node.type) {
    case 'object': {
      if (node.properties) {
        const props: JsonSchema = {}
        for (const [name, prop] of Object.entries(node.properties as JsonSchema)) {
          props[name] = optional?.includes(name) ? relaxOptional(prop as JsonSchema) : relax(prop as JsonSchema)
        }
        const { required: _r, ...rest } = node
        return { ...rest, properties: props }
      }
      return nullOr(node)
    }
    case 'array':
      return nullOr({ ...node, items: relax(node.items as JsonSchema) })
    case 'integer':
      return { ...describe(node), anyOf: [bare(node), { type: 'string', ...patterned(INTEGER_STRING) }] }
    case 'number':
      return { ...describe(node), anyOf: [bare(node), { type: 'string', ...patterned(NUMBER_STRING) }] }
    case 'string':
      if (node.pattern === TIME_CANONICAL) return { ...node, pattern: TIME_LENIENT }
      if (node.pattern === FINGERPRINT) return { ...node, pattern: FINGERPRINT_LENIENT }
      // Any text: normalize encodes what is not base64 (normalize/base64.ts), and lenient validation warns.
      if (node.pattern === BASE64) return { ...describe(node), type: 'string' }
      if (node.pattern === PORT) {
        return {
          ...describe(node),
          anyOf: [
            { type: 'string', ...patterned(PORT_LENIENT) },
            { type: 'integer', minimum: 0, maximum: 65535 },
          ],
        }
      }
      return node
    default:
      return node
  }
}

/**
 * The lenient forms of the protocol objects' members, by kind: `null` as well (read as absent),
 * a boolean also as a yes/no string or as 0 and 1, an integer also as text. Lifted into `$defs`
 * of the lenient document and referenced by each member, so each is written (and compiled) once.
 */
const LENIENT_MEMBER_DEFS: JsonSchema = {
  'lenient-text': { description: 'A string, or null (absent).', anyOf: [{ type: 'string' }, { type: 'null' }] },
  'lenient-texts': { description: 'An array of strings, or null (absent).', anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
  'lenient-answer': {
    description: 'A boolean; also `true`/`yes`/`1` or `false`/`no`/`0` as text (any case shown in the pattern), 0 or 1, or null (absent).',
    anyOf: [{ type: 'boolean' }, { type: 'string', ...patterned(BOOLEAN_STRING) }, { type: 'integer', minimum: 0, maximum: 1 }, { type: 'null' }],
  },
  'lenient-count': {
    description: 'An integer 0 or more; also as text; or null (absent).',
    anyOf: [{ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, { type: 'string', ...patterned(INTEGER_STRING) }, { type: 'null' }],
  },
}

/** The lenient form of a protocol object's member (a reference to its kind's form), or of a protocol object itself. */
export function relaxOptional(node: JsonSchema): JsonSchema {
  if (node.$ref) return { anyOf: [node, { type: 'null' }] }
  const kind = node.type === 'boolean' ? 'answer' : node.type === 'integer' ? 'count' : node.type === 'array' ? 'texts' : 'text'
  if (node.type === 'integer' && (node.minimum !== 0 || node.maximum !== Number.MAX_SAFE_INTEGER)) throw new Error('a protocol integer with other bounds')
  return { ...describe(node), $ref: `#/$defs/lenient-${kind}` }
}
