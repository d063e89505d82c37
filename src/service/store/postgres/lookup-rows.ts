/**
 * Rows of the lookup queries (the driver's raw mode: each column as its bytes) turned into the
 * store's answers: stored JSON split into services and leaks, with first and last seen.
 */
import type { Sql } from 'postgres'
import { formatTime } from '../../../time/index.js'
import type { Lookup, SeenEvent, SeenLookup } from '../types.js'

/** One raw row: json, is_leak, and (for the seen queries) first_seen, last_seen. */
export type Row = Buffer[]

const isTrue = (b: Buffer | null) => b !== null && b[0] === 0x74 // 't'

export function split(rows: Row[]): Lookup {
  const services: Buffer[] = []
  const leaks: Buffer[] = []
  for (const row of rows) (isTrue(row[1]!) ? leaks : services).push(row[0]!)
  return { services, leaks }
}

export function splitSeen(rows: Row[]): SeenLookup {
  const services: SeenEvent[] = []
  const leaks: SeenEvent[] = []
  for (const row of rows) {
    const seen = { json: row[0]!, firstSeen: formatTime(BigInt(row[2]!.toString('latin1'))), lastSeen: formatTime(BigInt(row[3]!.toString('latin1'))) }
    ;(isTrue(row[1]!) ? leaks : services).push(seen)
  }
  return { services, leaks }
}

/** The rows of the events at canonical address `ip`, in id order (`seen`: with first and last seen). */
export async function rowsAtAddress(sql: Sql, ip: string, seen: boolean): Promise<Row[]> {
  const rows = seen
    ? await sql`SELECT json, event_type = 'leak', first_seen::text, last_seen::text FROM events WHERE ip = ${ip}::inet ORDER BY id`.raw()
    : await sql`SELECT json, event_type = 'leak' FROM events WHERE ip = ${ip}::inet ORDER BY id`.raw()
  return rows as unknown as Row[]
}

/** The rows of the events on the label-reversed name `rev` and every name under it, by name then id. */
export async function rowsUnderName(sql: Sql, rev: string, seen: boolean): Promise<Row[]> {
  const rows = seen
    ? await sql`
      SELECT json, event_type = 'leak', first_seen::text, last_seen::text FROM events
      WHERE host_rev >= ${rev} AND host_rev < ${rev + '/'} AND (host_rev = ${rev} OR host_rev > ${rev + '.'})
      ORDER BY host_rev, id`.raw()
    : await sql`
      SELECT json, event_type = 'leak' FROM events
      WHERE host_rev >= ${rev} AND host_rev < ${rev + '/'} AND (host_rev = ${rev} OR host_rev > ${rev + '.'})
      ORDER BY host_rev, id`.raw()
  return rows as unknown as Row[]
}
