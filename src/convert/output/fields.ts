/**
 * `--fields`: dotted member paths into the event (`ip`, `http.status`, `ssl.certificate.cn`),
 * shared by the csv and human outputs. A path may name a leaf member, an object (written as
 * JSON), or one header of the map (`http.header.content-type`, the name lower-cased).
 */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
// The members' order as generated from the schema: converters load no TypeBox (issue 39).
import { protocols as PROTOCOL_MEMBERS, sshExtension as SSH_MEMBERS } from '../../validate/compiled/members.js'

/** Every leaf member path of the event, in canonical order (`http.header` is one leaf). */
export const LEAF_PATHS: readonly string[] = paths(emptyEvent() as unknown as Record<string, unknown>, '', false)

/**
 * The optional members' paths (src/schema/protocols.ts): the `ssh` extension, each protocol
 * object and its members (`redis`, `redis.version`, …). Empty in a row whose event lacks them.
 */
export const PROTOCOL_PATHS: readonly string[] = [
  ...Object.keys(SSH_MEMBERS).map((member) => `ssh.${member}`),
  ...Object.entries(PROTOCOL_MEMBERS).flatMap(([name, members]) => [name, ...Object.keys(members).map((member) => `${name}.${member}`)]),
]

/** Every path a field may name: the leaves and the objects above them, and the optional members. */
const ALL_PATHS: ReadonlySet<string> = new Set([...paths(emptyEvent() as unknown as Record<string, unknown>, '', true), ...PROTOCOL_PATHS])

const HEADER_PREFIX = 'http.header.'

function paths(value: Record<string, unknown>, prefix: string, objects: boolean): string[] {
  return Object.entries(value).flatMap(([name, v]) => {
    const path = `${prefix}${name}`
    if (v === null || typeof v !== 'object' || Array.isArray(v) || name === 'header') return [path]
    const inner = paths(v as Record<string, unknown>, `${path}.`, objects)
    return objects ? [path, ...inner] : inner
  })
}

/** Thrown for a field that is not a member path; its message lists the valid ones. */
export class UnknownFieldError extends Error {}

/** A chosen field: its name as given and the member names to follow. */
export interface Field {
  name: string
  path: readonly string[]
}

/** Checks and splits the chosen fields (throws UnknownFieldError for an unknown path). */
export function parseFields(names: readonly string[]): Field[] {
  return names.map((name) => {
    if (name.startsWith(HEADER_PREFIX) && name.length > HEADER_PREFIX.length) {
      return { name, path: ['http', 'header', name.slice(HEADER_PREFIX.length).toLowerCase()] }
    }
    if (!ALL_PATHS.has(name)) {
      throw new UnknownFieldError(
        `unknown field '${name}' (fields: ${LEAF_PATHS.join(', ')}; an object such as ssl.certificate; ${HEADER_PREFIX}NAME for one header; a protocol object or member such as redis.version, ssh.kex_algorithms)`,
      )
    }
    return { name, path: name.split('.') }
  })
}

/** The value at a field's path ('' when absent: a header the event does not have). */
export function fieldValue(event: Event, field: Field): unknown {
  let v: unknown = event
  for (const name of field.path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, name)) return undefined
    v = (v as Record<string, unknown>)[name]
  }
  return v
}

/** A value as one line of text: lists joined with `,` (modules as `name/version`), objects as JSON. */
export function fieldText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) {
    return value
      .map((v) => (v !== null && typeof v === 'object' ? [(v as { name?: string }).name, (v as { version?: string }).version].filter(Boolean).join('/') : String(v)))
      .join(',')
  }
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}
