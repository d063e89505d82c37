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
  /**
   * An optional member that stays absent when written (the protocol objects and their members,
   * the `ssh` extension): Go needs a pointer for it. False for `software.fingerprint`, which the
   * original always writes.
   */
  omitted: boolean
  description: string
}

export interface Struct {
  /** Type name, PascalCase (`Event`, `HTTP`, `GeoIP`). */
  name: string
  description: string
  members: Member[]
  /**
   * `event`: the event document and the lookup answers, which the original writes with every
   * member (an absent optional one as empty); `report`: l9kit's own bodies (error, conformance
   * report), where an absent optional member stays absent.
   */
  family: 'event' | 'report'
}

/** Type names where PascalCase of the `$defs` key is not how the names are usually written. */
const NAMES: Record<string, string> = {
  http: 'HTTP',
  ssl: 'SSL',
  ssh: 'SSH',
  geoip: 'GeoIP',
  vnc: 'VNC',
  ftp: 'FTP',
  smtp: 'SMTP',
  mysql: 'MySQL',
  postgresql: 'PostgreSQL',
  mongodb: 'MongoDB',
  amqp: 'AMQP',
  ldap: 'LDAP',
  sip: 'SIP',
  rdp: 'RDP',
  dns: 'DNS',
  rtsp: 'RTSP',
}
export const typeName = (key: string) => NAMES[key] ?? key.replace(/(^|[_.-])([a-z])/g, (_m, _s, c: string) => c.toUpperCase())

/**
 * Members stored as 64-bit integers by the original (`int64`), or whose range needs 64 bits:
 * by `struct.member`. Every other integer is the original's `int` (0–999 statuses, key sizes).
 */
const WIDE = new Set([
  'HTTP.length',
  'Dataset.rows',
  'Dataset.files',
  'Dataset.size',
  'Dataset.collections',
  'Network.asn',
  'Subdomain.distinct_ips',
  'Aggregation.leak_count',
  'Aggregation.leak_event_count',
  // memcached's counters are 64-bit in its `stats`.
  ...['curr_items', 'total_items', 'bytes', 'max_bytes', 'cmd_get', 'cmd_set', 'get_hits', 'get_misses'].map((m) => `Memcached.${m}`),
])
/** Optional members that are always written, empty when absent (the original's `software.fingerprint`). */
const ALWAYS_WRITTEN = new Set(['Software.fingerprint'])
/** Members that hold bytes, written as base64 text (the original's `[]byte`). */
const BYTES = new Set(['Credentials.raw'])

/** How one document's structs are named and where inline objects become structs of their own. */
interface Reading {
  family: Struct['family']
  /** `$defs` key → type name. */
  defName: (key: string) => string
  /** Structs made of inline objects (`{type: object, properties}` inside a member), in the order met. */
  inline: Struct[]
  /** JSON text of a `$defs` entry → its type name: an inline copy of one is that type. */
  defs: Map<string, string>
}

const EVENT_READING = (): Reading => ({ family: 'event', defName: typeName, inline: [], defs: new Map() })

function shapeOf(node: JsonSchema, where: string, reading: Reading = EVENT_READING()): Shape {
  if (typeof node.$ref === 'string') return { kind: 'struct', name: reading.defName(node.$ref.replace('#/$defs/', '')) }
  if (Array.isArray(node.anyOf)) {
    const alts = node.anyOf as JsonSchema[]
    const other = alts.filter((a) => a.type !== 'null')
    if (other.length === 1 && alts.length === 2) return { kind: 'nullable', of: shapeOf(other[0]!, where, reading) }
    // A union of string constants (an enumeration) is a string.
    if (alts.every((a) => a.type === 'string' && typeof a.const === 'string')) return { kind: 'string' }
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
      return { kind: 'array', of: shapeOf(node.items as JsonSchema, where, reading) }
    case 'object':
      if (node.properties === undefined && typeof node.additionalProperties === 'object') {
        return { kind: 'map', of: shapeOf(node.additionalProperties as JsonSchema, where, reading) }
      }
      if (node.properties !== undefined) {
        // An inline object: the `$defs` entry it copies, or a struct named after its place.
        const known = reading.defs.get(JSON.stringify(node))
        if (known !== undefined) return { kind: 'struct', name: known }
        const [parent, member] = where.split('.')
        const name = `${parent}${typeName(member!)}`
        reading.inline.push(structOf(name, node, reading))
        return { kind: 'struct', name }
      }
  }
  throw new Error(`${where}: no type for ${JSON.stringify(node).slice(0, 80)}`)
}

/** A member's description, or, for a reference to a part without one of its own, the part's. */
function describeMember(prop: JsonSchema, defs: Record<string, JsonSchema>): string {
  if (prop.description !== undefined) return String(prop.description)
  const ref = typeof prop.$ref === 'string' ? defs[prop.$ref.replace('#/$defs/', '')] : undefined
  return String(ref?.description ?? '')
}

function structOf(name: string, node: JsonSchema, reading: Reading = EVENT_READING(), defs: Record<string, JsonSchema> = {}): Struct {
  const required = new Set((node.required ?? []) as string[])
  const members = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>).map(([json, prop]) => ({
    json,
    shape: shapeOf(prop, `${name}.${json}`, reading),
    optional: !required.has(json),
    omitted: !required.has(json) && !ALWAYS_WRITTEN.has(`${name}.${json}`),
    description: describeMember(prop, defs),
  }))
  return { name, description: String(node.description ?? ''), members, family: reading.family }
}

/** The structs of one of l9kit's own bodies: the document's struct, its `$defs` (named with `prefix`), the inline objects. */
function reportStructs(name: string, prefix: string, doc: JsonSchema): Struct[] {
  const defs = Object.entries((doc.$defs ?? {}) as Record<string, JsonSchema>)
  const reading: Reading = { family: 'report', defName: (key) => `${prefix}${typeName(key)}`, inline: [], defs: new Map(defs.map(([key, def]) => [JSON.stringify(def), `${prefix}${typeName(key)}`])) }
  const main = structOf(name, doc, reading)
  main.description = String(doc.description ?? '')
  const parts = defs.map(([key, def]) => structOf(`${prefix}${typeName(key)}`, def, reading))
  return [main, ...parts, ...reading.inline]
}

/**
 * The structs of the event, lookup-result, subdomains and aggregation documents: `Event` first,
 * then its parts in `$defs` order, then `LookupResult`, `Subdomain` (an item of the subdomains
 * array) and `Aggregation` (whose event, geoip and network are the structs above); then l9kit's
 * own bodies: `ErrorBody` (every answer but a 200) and `ConformReport` (what
 * `l9kit conform --report json:FILE` writes) with its parts.
 */
export function readStructs(event: JsonSchema, lookup: JsonSchema, subdomains: JsonSchema, aggregation: JsonSchema, error: JsonSchema, report: JsonSchema): Struct[] {
  const structs = [structOf('Event', event, EVENT_READING(), event.$defs as Record<string, JsonSchema>)]
  for (const [key, def] of Object.entries(event.$defs as Record<string, JsonSchema>)) structs.push(structOf(typeName(key), def))
  const result = structOf('LookupResult', lookup)
  result.description = String(lookup.description ?? '')
  structs.push(result, structOf('Subdomain', subdomains.items as JsonSchema))
  const aggregate = structOf('Aggregation', aggregation)
  aggregate.description = String(aggregation.description ?? '')
  structs.push(aggregate)
  structs.push(...reportStructs('ErrorBody', 'Error', error), ...reportStructs('ConformReport', 'Conform', report))
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
