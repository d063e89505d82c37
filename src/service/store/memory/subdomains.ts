/** The memory store's subdomains answer: per name below a domain, its distinct addresses and last seen time. */
import type { SubdomainEntry } from '../../../schema/index.js'
import { formatTimeMillis } from '../../../time/index.js'
import { reverseLabels } from '../../names/domain.js'
import { forEachId } from './columns.js'
import { NS_PER_MS } from './instants.js'
import type { NameIndex } from './name-index.js'

/**
 * Names below the canonical domain `canonical`, most recently seen first (so a plan's cap keeps
 * the freshest names), then by name; at most `limit`. `ipOf`, `ms` and `ns` are the store's
 * columns: an event's address number (-1: none) and last seen time.
 */
export function subdomainsOf(names: NameIndex, canonical: string, limit: number | undefined, ipOf: Int32Array, ms: Float64Array, ns: Int32Array): SubdomainEntry[] {
  const [from, to] = names.range(reverseLabels(canonical))
  const found: { name: number; ips: number; ms: number; ns: number }[] = []
  for (let i = from; i < to; i++) {
    const n = names.sortedAt(i)
    const seen = new Set<number>()
    let latest = -Infinity
    let latestNs = 0
    forEachId(names.ids[n], (id) => {
      if (ipOf[id]! >= 0) seen.add(ipOf[id]!)
      const m = ms[id]!
      const s = ns[id]!
      if (m > latest || (m === latest && s > latestNs)) {
        latest = m
        latestNs = s
      }
    })
    found.push({ name: n, ips: seen.size, ms: latest, ns: latestNs })
  }
  const rev = names.reversed
  found.sort((a, b) => b.ms - a.ms || b.ns - a.ns || (rev[a.name]! < rev[b.name]! ? -1 : 1))
  const kept = limit === undefined ? found : found.slice(0, limit)
  return kept.map((f) => ({
    subdomain: reverseLabels(rev[f.name]!),
    distinct_ips: f.ips,
    last_seen: formatTimeMillis(BigInt(f.ms) * NS_PER_MS + BigInt(f.ns)),
  }))
}
