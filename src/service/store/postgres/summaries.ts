/** The PostgreSQL store's grouped answers: the subdomains of a domain, and leak counts per severity. */
import type { Sql } from 'postgres'
import type { SubdomainEntry } from '../../../schema/index.js'
import { formatTimeMillis } from '../../../time/index.js'
import { reverseLabels } from '../../names/domain.js'

/** Names below the label-reversed domain `rev`, most recently seen first (then by name), at most `limit`. */
export async function subdomainsOf(sql: Sql, rev: string, limit?: number): Promise<SubdomainEntry[]> {
  // Most recently seen first, so a plan's cap keeps the freshest names; then by name.
  const rows = await sql<{ host_rev: string; ips: number; last: string }[]>`
    SELECT host_rev, count(DISTINCT ip)::integer AS ips, max(last_seen)::text AS last FROM events
    WHERE host_rev > ${rev + '.'} AND host_rev < ${rev + '/'}
    GROUP BY host_rev ORDER BY max(last_seen) DESC, host_rev LIMIT ${limit ?? null}`
  return rows.map((r) => ({ subdomain: reverseLabels(r.host_rev), distinct_ips: r.ips, last_seen: formatTimeMillis(BigInt(r.last)) }))
}

/** Stored leak events by `leak.severity`. */
export async function severityCountsOf(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ severity: string; n: number }[]>`
    SELECT severity, count(*)::integer AS n FROM events WHERE event_type = 'leak' GROUP BY severity`
  // fromEntries defines own members, so a severity such as `__proto__` stays plain data.
  return Object.fromEntries(rows.map((r) => [r.severity, r.n] as const))
}
