/**
 * What a write changed, told to every process on the database (lookup-cache.ts keeps answers
 * until told): each write that changes what a lookup answers sends, inside its transaction,
 * NOTIFY on the schema's changes channel with the addresses and names whose events it inserted,
 * updated or deleted. PostgreSQL delivers it at commit (never for a rolled-back write), after the
 * rows are visible. A payload holds at most 8000 bytes: a change that needs more than
 * MAX_NOTIFICATIONS of them is sent as "everything" instead.
 */
import type { TransactionSql } from 'postgres'
import { canonicalDomain } from '../../names/domain.js'
import { canonicalIp } from '../../names/ip.js'

/** Largest payload sent (PostgreSQL refuses 8000 bytes and more). */
const PAYLOAD_BYTES = 7900
/** More would be slower to send and read than dropping every kept answer. */
const MAX_NOTIFICATIONS = 16
/** The payload that means "anything may have changed". */
export const EVERYTHING = '*'

/** The addresses (canonical) and names (canonical, not reversed) a write changed. */
export interface Changed {
  ips: Set<string>
  names: Set<string>
}

export const noChange = (): Changed => ({ ips: new Set(), names: new Set() })

/** The channel of a schema's changes. */
export const changesChannel = (schema: string) => `l9kit_changed_${schema}`.slice(0, 63)

/**
 * Adds what a stored event is about, read from its JSON (a deletion): its address and its host,
 * both as the store reads them and more (an address given as `host` too), since telling too
 * much only drops a kept answer that was still right.
 */
export function addEventOf(changed: Changed, json: string): void {
  const event = JSON.parse(json) as { ip?: unknown; host?: unknown }
  for (const text of [event.ip, event.host]) {
    if (typeof text !== 'string' || text === '') continue
    const ip = canonicalIp(text)
    if (ip !== null) changed.ips.add(ip)
    const name = canonicalDomain(text)
    if (name !== null) changed.names.add(name)
  }
}

/** The payloads telling `changed`: JSON `{"i":[…],"n":[…]}` each, or EVERYTHING alone. */
export function changePayloads(changed: Changed): string[] {
  const payloads: string[] = []
  let ips: string[] = []
  let names: string[] = []
  let bytes = 0
  const flush = () => {
    if (ips.length + names.length > 0) payloads.push(JSON.stringify({ i: ips, n: names }))
    ips = []
    names = []
    bytes = 20
  }
  flush()
  for (const [list, items] of [['i', changed.ips], ['n', changed.names]] as const) {
    for (const item of items) {
      const size = Buffer.byteLength(JSON.stringify(item)) + 1
      if (size + 20 > PAYLOAD_BYTES) return [EVERYTHING]
      if (bytes + size > PAYLOAD_BYTES) flush()
      if (payloads.length >= MAX_NOTIFICATIONS) return [EVERYTHING]
      ;(list === 'i' ? ips : names).push(item)
      bytes += size
    }
  }
  flush()
  return payloads.length > MAX_NOTIFICATIONS ? [EVERYTHING] : payloads
}

/** Reads a payload: what changed, or null for everything (or for a payload it cannot read). */
export function readChangePayload(payload: string): Changed | null {
  if (payload === EVERYTHING) return null
  try {
    const { i, n } = JSON.parse(payload) as { i: unknown; n: unknown }
    if (!Array.isArray(i) || !Array.isArray(n)) return null
    return { ips: new Set(i.filter((x): x is string => typeof x === 'string')), names: new Set(n.filter((x): x is string => typeof x === 'string')) }
  } catch {
    return null
  }
}

/** Sends `changed` on `channel` inside `tx` (delivered at its commit); nothing when nothing changed. */
export async function notifyChanged(tx: TransactionSql, channel: string, changed: Changed): Promise<void> {
  if (changed.ips.size === 0 && changed.names.size === 0) return
  for (const payload of changePayloads(changed)) await tx`SELECT pg_notify(${channel}, ${payload})`
}

/** What a merge changed: the address and name of each staged row the merge inserted or updated (`k` its identity). */
export function changedRows(rows: readonly { identity: string; kept: { ip: string; name: string } }[], merged: readonly { k: Buffer }[]): Changed {
  const changed = noChange()
  if (merged.length === 0) return changed
  const keys = new Set(merged.map((r) => r.k.toString('latin1')))
  for (const row of rows) {
    if (!keys.has(row.identity)) continue
    if (row.kept.ip !== '') changed.ips.add(row.kept.ip)
    if (row.kept.name !== '') changed.names.add(row.kept.name)
  }
  return changed
}
