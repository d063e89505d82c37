/**
 * Field rows for the protocol objects and the `ssh` extension (src/schema/protocols.ts), made
 * from the schema so that a member added there is searchable without a second list: strings
 * are keywords (exact, as `service.software.name`), the greeting texts (`banner`) are text
 * (words, as `ssh.banner`), booleans `bool`, integers `integer`, string lists keywords of any
 * element. None is indexed: the stores read them from the document (sql.ts: JSON path).
 */
// The members and their types as generated from the schema: `filter` loads no TypeBox (issue 39).
import { protocols as PROTOCOL_MEMBERS, sshExtension as SSH_MEMBERS } from '../validate/compiled/members.js'
import type { Field } from './fields.js'

/** Members compared by words rather than exactly. */
const TEXT_MEMBERS = new Set(['banner'])

function row(object: string, member: string, type: string): Field {
  const name = `${object}.${member}`
  const path = [object, member]
  switch (type) {
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

const rows = (object: string, members: Readonly<Record<string, string>>): Field[] => Object.entries(members).map(([member, type]) => row(object, member, type))

/** `ssh.key_type` … `ssh.auth_methods`, then every member of every protocol object, in canonical order. */
export const PROTOCOL_FIELDS: readonly Field[] = [
  ...rows('ssh', SSH_MEMBERS),
  ...Object.entries(PROTOCOL_MEMBERS).flatMap(([object, members]) => rows(object, members)),
]
