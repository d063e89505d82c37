/**
 * The memory store's subdomains answer: every name below the domain (a contiguous range of the
 * name index), with its distinct addresses and latest time, most recently seen first.
 */
import type { SubdomainEntry } from '../../../schema/index.js'
import { formatTimeMillis } from '../../../time/index.js'
import { reverseLabels } from '../../names/domain.js'
import { forEachId } from './columns.js'
import { NS_PER_MS } from './instants.js'
import type { NameIndex } from './name-index.js'

/** The store's columns the answer reads: each event's address number and time. */
export interface SubdomainColumns {
  ipOf: Int32Array
  ms: Float64Array
  subMs: Int32Array
}

/** The entries below the label-reversed domain `rev`, at most `limit` (undefined = all). */
export function subdomainEntries(names: NameIndex, rev: string, columns: SubdomainColumns, limit?: number): SubdomainEntry[] {
  const [from, to] = names.range(rev)
  const found: { name: number; ips: number; ms: number; ns: number }[] = []
  const { ipOf, ms: msOf, subMs } = columns
  for (let i = from; i < to; i++) {
    const n = names.sortedAt(i)
    const seen = new Set<number>()
    let ms = -Infinity
    let ns = 0
    forEachId(names.ids[n], (id) => {
      if (ipOf[id]! >= 0) seen.add(ipOf[id]!)
      const m = msOf[id]!
      const s = subMs[id]!
      if (m > ms || (m === ms && s > ns)) {
        ms = m
        ns = s
      }
    })
    found.push({ name: n, ips: seen.size, ms, ns })
  }
  // Most recently seen first, so a plan's cap keeps the freshest names; then by name.
  const reversed = names.reversed
  found.sort((a, b) => b.ms - a.ms || b.ns - a.ns || (reversed[a.name]! < reversed[b.name]! ? -1 : 1))
  const kept = limit === undefined ? found : found.slice(0, limit)
  return kept.map((f) => ({
    subdomain: reverseLabels(reversed[f.name]!),
    distinct_ips: f.ips,
    last_seen: formatTimeMillis(BigInt(f.ms) * NS_PER_MS + BigInt(f.ns)),
  }))
}
