/**
 * Field rows for the protocol objects and the `ssh` extension (src/schema/protocols.ts), made
 * from the schema so that a member added there is searchable without a second list: strings
 * are keywords (exact, as `service.software.name`), the greeting texts (`banner`) are text
 * (words, as `ssh.banner`), booleans `bool`, integers `integer`, string lists keywords of any
 * element. None is indexed: the stores read them from the document (sql.ts: JSON path).
 */
import { PROTOCOLS, SSH_EXTENSION } from '../schema/protocols.js'
import type { Field } from './fields.js'

/** Members compared by words rather than exactly. */
const TEXT_MEMBERS = new Set(['banner'])

interface LeafSchema {
  type?: string
}

function row(object: string, member: string, schema: LeafSchema): Field {
  const name = `${object}.${member}`
  const path = [object, member]
  switch (schema.type) {
    case 'boolean':
      return { name, type: 'bool', path }
    case 'integer':
      return { name, type: 'integer', path }
    case 'array':
      return { name, type: 'keyword', path: [...path, '[]'] }
    default:
      return { name, type: TEXT_MEMBERS.has(member) ? 'text' : 'keyword', path }
  }
}

const rows = (object: string, properties: Record<string, LeafSchema>): Field[] =>
  Object.entries(properties).map(([member, schema]) => row(object, member, schema))

/** `ssh.key_type` … `ssh.auth_methods`, then every member of every protocol object, in canonical order. */
export const PROTOCOL_FIELDS: readonly Field[] = [
  ...rows('ssh', SSH_EXTENSION as Record<string, LeafSchema>),
  ...Object.entries(PROTOCOLS).flatMap(([object, schema]) => rows(object, schema.properties as Record<string, LeafSchema>)),
]
