/**
 * The protocol objects of an event (src/schema/protocols.ts: `redis`, `mysql`, …, and the
 * members that extend `ssh`) as small labelled tables for the host page: one per object present,
 * one row per member present, labelled with the schema's titles, in the schema's order.
 */
import { type Event, PROTOCOL_NAMES, PROTOCOLS, SSH_EXTENSION } from '../../schema/index.js'
import { Ssh } from '../../schema/event.js'

export interface ProtocolTable {
  /** The event member (`redis`, `ssh`, …): the table's id part and class. */
  member: string
  /** The object's title (`Redis`, `SSH`). */
  title: string
  rows: { label: string; value: string }[]
}

/** The tables of one event: each present protocol object, and `ssh` when it holds an extension member. */
export function protocolTables(event: Event): ProtocolTable[] {
  const tables: ProtocolTable[] = []
  const doc = event as unknown as Record<string, unknown>
  const ssh = event.ssh as unknown as Record<string, unknown>
  if (Object.keys(SSH_EXTENSION).some((k) => ssh[k] !== undefined)) {
    // The four specified members too (those with a value), so the table says what the server is.
    tables.push({ member: 'ssh', title: titleOf(Ssh, 'SSH'), rows: rowsOf(ssh, Ssh.properties as Properties, true) })
  }
  for (const name of PROTOCOL_NAMES) {
    const value = doc[name]
    if (value === undefined || value === null || typeof value !== 'object') continue
    const schema = PROTOCOLS[name]
    tables.push({ member: name, title: titleOf(schema, name), rows: rowsOf(value as Record<string, unknown>, schema.properties as Properties, false) })
  }
  return tables
}

type Properties = Record<string, { title?: string }>

const titleOf = (schema: object, fallback: string): string => (schema as { title?: string }).title ?? fallback

function rowsOf(object: Record<string, unknown>, properties: Properties, skipEmpty: boolean): { label: string; value: string }[] {
  const rows: { label: string; value: string }[] = []
  for (const [member, schema] of Object.entries(properties)) {
    const value = object[member]
    if (value === undefined || value === null) continue
    if (skipEmpty && (value === '' || value === 0)) continue
    rows.push({ label: schema.title ?? member, value: shownValue(value) })
  }
  return rows
}

/** A member's value as text: yes/no, a number, a list joined by commas ("none" when empty). */
function shownValue(value: unknown): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(String).join(', ')
  return String(value)
}
