/**
 * The PostgreSQL store's plugin counts (migrations/postgres/0007-plugins.sql): the ingest
 * transaction adds its new events to the `plugins` and `plugin_counts` tables, so the counts are
 * right whichever process ingests; a request sums the buckets of its windows.
 */
import type { Sql, TransactionSql } from 'postgres'
import type { Instant } from '../../../time/index.js'
import { hourOfMinute, keptFrom, minuteOf, windowsAt } from '../plugin-windows.js'
import type { Prepared } from '../prepare.js'
import type { PluginCount } from '../types.js'

/**
 * Counts `added` (this transaction's new events, each by the copy first stored) at clock `now`.
 * Rows are written in (name, unit, bucket) order, so two transactions lock them in one order
 * (no deadlock); it is the transaction's last statement, so a bucket's row is held only until
 * the commit that follows.
 */
export async function countAdded(tx: TransactionSql, added: readonly Prepared[], now: Instant): Promise<void> {
  const counts = new Map<string, number>()
  const names = new Set<string>()
  const from = keptFrom(now)
  for (const p of added) {
    if (p.source === '') continue
    names.add(p.source)
    const minute = minuteOf(p.time)
    const hour = hourOfMinute(minute)
    if (minute >= from.minute) bump(counts, `${p.source}\u0000m\u0000${minute}`)
    if (hour >= from.hour) bump(counts, `${p.source}\u0000h\u0000${hour}`)
  }
  if (names.size === 0) return
  await tx`INSERT INTO plugins (name) SELECT unnest(${tx.array([...names].sort(byteOrder))}::text[]) ON CONFLICT DO NOTHING`
  if (counts.size === 0) return
  const rows = [...counts].map(([key, n]) => [...key.split('\u0000'), n] as [string, string, string, number])
  rows.sort((a, b) => byteOrder(a[0], b[0]) || byteOrder(a[1], b[1]) || Number(a[2]) - Number(b[2]))
  await tx`
    INSERT INTO plugin_counts AS c (name, unit, bucket, n)
    SELECT name, unit, bucket, n FROM unnest(
      ${tx.array(rows.map((r) => r[0]))}::text[], ${tx.array(rows.map((r) => r[1]))}::"char"[],
      ${tx.array(rows.map((r) => r[2]))}::bigint[], ${tx.array(rows.map((r) => r[3]))}::bigint[]
    ) WITH ORDINALITY AS q (name, unit, bucket, n, i)
    ORDER BY i
    ON CONFLICT (name, unit, bucket) DO UPDATE SET n = c.n + excluded.n`
}

/**
 * Uncounts deleted events (`source`, `first_seen` in nanoseconds: counted there, see countAdded),
 * and forgets the plugins no stored event has any more. Buckets go no lower than 0; an emptied
 * one is deleted.
 */
export async function countDeleted(tx: TransactionSql, deleted: readonly { source: string; first_seen: string }[], now: Instant): Promise<void> {
  const counts = new Map<string, number>()
  const names = new Set<string>()
  const from = keptFrom(now)
  for (const d of deleted) {
    if (d.source === '') continue
    names.add(d.source)
    const minute = minuteOf(BigInt(d.first_seen))
    const hour = hourOfMinute(minute)
    if (minute >= from.minute) bump(counts, `${d.source}\u0000m\u0000${minute}`)
    if (hour >= from.hour) bump(counts, `${d.source}\u0000h\u0000${hour}`)
  }
  if (names.size === 0) return
  const rows = [...counts].map(([key, n]) => [...key.split('\u0000'), n] as [string, string, string, number])
  rows.sort((a, b) => byteOrder(a[0], b[0]) || byteOrder(a[1], b[1]) || Number(a[2]) - Number(b[2]))
  if (rows.length > 0) {
    await tx`
      UPDATE plugin_counts AS c SET n = greatest(c.n - q.n, 0)
      FROM unnest(
        ${tx.array(rows.map((r) => r[0]))}::text[], ${tx.array(rows.map((r) => r[1]))}::"char"[],
        ${tx.array(rows.map((r) => r[2]))}::bigint[], ${tx.array(rows.map((r) => r[3]))}::bigint[]
      ) AS q (name, unit, bucket, n)
      WHERE c.name = q.name AND c.unit = q.unit AND c.bucket = q.bucket`
    await tx`DELETE FROM plugin_counts WHERE n <= 0 AND name = ANY(${tx.array([...names])}::text[])`
  }
  await tx`
    DELETE FROM plugins p WHERE p.name = ANY(${tx.array([...names].sort(byteOrder))}::text[])
      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.source = p.name)`
  await tx`DELETE FROM plugin_counts c WHERE c.name = ANY(${tx.array([...names])}::text[]) AND NOT EXISTS (SELECT 1 FROM plugins p WHERE p.name = c.name)`
}

/** Every plugin (or the one named) with its counts at `now`, by name in byte order. */
export async function readPlugins(sql: Sql, now: Instant, name?: string): Promise<PluginCount[]> {
  const w = windowsAt(now)
  const rows = await sql<{ name: string; h1: string; h24: string; d7: string }[]>`
    SELECT p.name,
      coalesce(sum(c.n) FILTER (WHERE c.unit = 'm' AND c.bucket BETWEEN ${w.minutes[0]} AND ${w.minutes[1]}), 0)::text AS h1,
      coalesce(sum(c.n) FILTER (WHERE c.unit = 'h' AND c.bucket BETWEEN ${w.hours24h[0]} AND ${w.hours24h[1]}), 0)::text AS h24,
      coalesce(sum(c.n) FILTER (WHERE c.unit = 'h' AND c.bucket BETWEEN ${w.hours7d[0]} AND ${w.hours7d[1]}), 0)::text AS d7
    FROM plugins p
    LEFT JOIN plugin_counts c ON c.name = p.name
      AND ((c.unit = 'm' AND c.bucket BETWEEN ${w.minutes[0]} AND ${w.minutes[1]}) OR (c.unit = 'h' AND c.bucket BETWEEN ${w.hours7d[0]} AND ${w.hours7d[1]}))
    WHERE ${name === undefined} OR p.name = ${name ?? ''}
    GROUP BY p.name ORDER BY p.name`
  return rows.map((r) => ({ name: r.name, count1h: Number(r.h1), count24h: Number(r.h24), count7d: Number(r.d7) }))
}

/** Drops the buckets that can no longer count at `now` or later. */
export async function pruneCounts(sql: Sql, now: Instant): Promise<void> {
  const w = windowsAt(now)
  await sql`DELETE FROM plugin_counts WHERE (unit = 'm' AND bucket < ${w.minutes[0]}) OR (unit = 'h' AND bucket < ${w.hours7d[0]})`
}

const bump = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1)
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
