/**
 * The shapes of the published documents, read from the JSON Schema files (not from TypeBox), as
 * the Go, Python and Rust emitters need them: named structs with their members in document order,
 * and the few facts a schema cannot say but the original implementation fixes (integer widths,
 * `raw` as bytes). One reading for all three languages, so they cannot drift apart.
 */
import type { JsonSchema } from '../../src/schema/index.js'

/** The type of one member. */
export type Shape =
  | { kind: 'string' }
  | { kind: 'bytes' }
  | { kind: 'bool' }
  | { kind: 'int'; wide: boolean }
  | { kind: 'float' }
  | { kind: 'array'; of: Shape }
  | { kind: 'map'; of: Shape }
  | { kind: 'struct'; name: string }
  | { kind: 'nullable'; of: Shape }

export interface Member {
  /** Name in the JSON document. */
  json: string
  shape: Shape
  /** May be absent (not in `required`); such a member is written only when present. */
  optional: boolean
  description: string
}

export interface Struct {
  /** Type name, PascalCase (`Event`, `HTTP`, `GeoIP`). */
  name: string
  description: string
  members: Member[]
}

/** Type names where PascalCase of the `$defs` key is not how the names are usually written. */
const NAMES: Record<string, string> = { http: 'HTTP', ssl: 'SSL', ssh: 'SSH', geoip: 'GeoIP' }
export const typeName = (key: string) => NAMES[key] ?? key.replace(/(^|[_.-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())

/**
 * Members stored as 64-bit integers by the original (`int64`), or whose range needs 64 bits:
 * by `struct.member`. Every other integer is the original's `int` (0–999 statuses, key sizes).
 */
const WIDE = new Set(['HTTP.length', 'Dataset.rows', 'Dataset.files', 'Dataset.size', 'Dataset.collections', 'Network.asn', 'Subdomain.distinct_ips', 'Aggregation.leak_count', 'Aggregation.leak_event_count'])
/** Members that hold bytes, written as base64 text (the original's `[]byte`). */
const BYTES = new Set(['Credentials.raw'])

function shapeOf(node: JsonSchema, where: string): Shape {
  if (typeof node.$ref === 'string') return { kind: 'struct', name: typeName(node.$ref.replace('#/$defs/', '')) }
  if (Array.isArray(node.anyOf)) {
    const alts = node.anyOf as JsonSchema[]
    const other = alts.filter((a) => a.type !== 'null')
    if (other.length === 1 && alts.length === 2) return { kind: 'nullable', of: shapeOf(other[0]!, where) }
    throw new Error(`${where}: a union other than "T or null" has no type here`)
  }
  switch (node.type) {
    case 'string':
      return BYTES.has(where) ? { kind: 'bytes' } : { kind: 'string' }
    case 'boolean':
      return { kind: 'bool' }
    case 'integer':
      return { kind: 'int', wide: WIDE.has(where) }
    case 'number':
      return { kind: 'float' }
    case 'array':
      return { kind: 'array', of: shapeOf(node.items as JsonSchema, where) }
    case 'object':
      if (node.properties === undefined && typeof node.additionalProperties === 'object') {
        return { kind: 'map', of: shapeOf(node.additionalProperties as JsonSchema, where) }
      }
  }
  throw new Error(`${where}: no type for ${JSON.stringify(node).slice(0, 80)}`)
}

function structOf(name: string, node: JsonSchema): Struct {
  const required = new Set((node.required ?? []) as string[])
  const members = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>).map(([json, prop]) => ({
    json,
    shape: shapeOf(prop, `${name}.${json}`),
    optional: !required.has(json),
    description: String(prop.description ?? ''),
  }))
  return { name, description: String(node.description ?? ''), members }
}

/**
 * The structs of the event, lookup-result, subdomains and aggregation documents: `Event` first,
 * then its parts in `$defs` order, then `LookupResult`, `Subdomain` (an item of the subdomains
 * array) and `Aggregation` (whose event, geoip and network are the structs above).
 */
export function readStructs(event: JsonSchema, lookup: JsonSchema, subdomains: JsonSchema, aggregation: JsonSchema): Struct[] {
  const structs = [structOf('Event', event)]
  for (const [key, def] of Object.entries(event.$defs as Record<string, JsonSchema>)) structs.push(structOf(typeName(key), def))
  const result = structOf('LookupResult', lookup)
  result.description = String(lookup.description ?? '')
  structs.push(result, structOf('Subdomain', subdomains.items as JsonSchema))
  const aggregate = structOf('Aggregation', aggregation)
  aggregate.description = String(aggregation.description ?? '')
  structs.push(aggregate)
  return structs
}

/** The text of a description on one line, for a comment (descriptions use Markdown backticks). */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Wraps comment text at about `width` characters. */
export function wrap(text: string, width = 96): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of oneLine(text).split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  return lines
}
