/**
 * Rows of the field table for the protocol objects (`redis.auth_required`, `ssh.kex_algorithms`,
 * …: src/schema/protocols.ts), made from their schema so that a new member is searchable at
 * once: strings are keywords (banners and messages of the day: text, word by word), booleans
 * bool, integers integer, string lists keywords matched element by element. Both scopes.
 */
import { PROTOCOLS, SSH_EXTENSION } from '../schema/protocols.js'
import type { Field, FieldType } from './fields.js'

/** Members read as words rather than whole values. */
const TEXT_MEMBERS = /(^|_)(banner|motd)$/

type Schema = { type?: string; items?: Schema; properties?: Record<string, Schema> }

function row(path: string[], schema: Schema): Field | null {
  const name = path.join('.')
  const leaf = path[path.length - 1]!
  if (schema.type === 'array' && schema.items?.type === 'string') return { name, type: 'keyword', path: [...path, '[]'] }
  const type: FieldType | undefined =
    schema.type === 'string' ? (TEXT_MEMBERS.test(leaf) ? 'text' : 'keyword') : schema.type === 'boolean' ? 'bool' : schema.type === 'integer' ? 'integer' : schema.type === 'number' ? 'float' : undefined
  return type === undefined ? null : { name, type, path }
}

/** One row per member of every protocol object, and of the members that extend `ssh`. */
export function protocolFields(): Field[] {
  const rows: (Field | null)[] = []
  for (const [member, schema] of Object.entries(SSH_EXTENSION)) rows.push(row(['ssh', member], schema as Schema))
  for (const [object, schema] of Object.entries(PROTOCOLS)) {
    for (const [member, part] of Object.entries((schema as Schema).properties ?? {})) rows.push(row([object, member], part))
  }
  return rows.filter((r): r is Field => r !== null)
}
