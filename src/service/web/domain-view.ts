/** What the domain page shows: the domain's events grouped by host, and its subdomains. */
import type { SubdomainEntry } from '../../schema/index.js'
import { reverseLabels } from '../names/domain.js'
import type { SeenLookup } from '../store/types.js'
import { MAX_ROWS } from './host-view.js'
import { type FindingRow, findingRow, serviceRow, type ServiceRow } from './rows.js'
import { type Sort, type SortHeader, type SortKey, sortHeaders, sortRanks, sortRows } from './sort.js'

/** Where first (the address and port): at 360 px the first columns are the ones in view. */
export const DOMAIN_COLUMNS: readonly [SortKey, string][] = [
  ['ip', 'IP'],
  ['port', 'Port'],
  ['severity', 'Severity'],
  ['finding', 'Event'],
  ['plugin', 'Plugin'],
  ['fingerprint', 'Fingerprint'],
  ['first', 'First seen'],
  ['last', 'Last seen'],
  ['days', 'Days open'],
]

export interface HostGroup {
  host: string
  ips: string[]
  rows: (FindingRow | ServiceRow)[]
}

export interface SubdomainRow {
  name: string
  distinctIps: number
  /** Addresses of the name's events (links to their host pages). */
  ips: string[]
  lastSeen: string
}

export interface DomainView {
  domain: string
  /** One tbody each in the page's one events table. */
  groups: HostGroup[]
  /** Per row drawn: its `data-r` ranks for sorting in the page. */
  ranks: Map<FindingRow | ServiceRow, string>
  events: number
  leaks: number
  /** Rows left out by MAX_ROWS. */
  hidden: number
  subdomains: SubdomainRow[]
  /** Subdomains the plan's cap left out, and the cap. */
  subdomainsHidden: number
  subdomainCap: number | null
  planName: string
  headers: SortHeader[]
  sort: Sort
}

/**
 * The domain page's data for canonical name `domain`: `entries` are all its subdomains (most
 * recently seen first), of which the plan's `cap` are shown.
 */
export function domainView(domain: string, seen: SeenLookup, entries: SubdomainEntry[], cap: number | null, planName: string, sort: Sort): DomainView {
  const rows = sortRows<FindingRow | ServiceRow>([...seen.leaks.map(findingRow), ...seen.services.map(serviceRow)], sort)
  const kept = rows.slice(0, MAX_ROWS)
  const byHost = new Map<string, HostGroup>()
  for (const row of kept) {
    let group = byHost.get(row.host)
    if (group === undefined) byHost.set(row.host, (group = { host: row.host, ips: [], rows: [] }))
    group.rows.push(row)
  }
  const ipsOf = new Map<string, Set<string>>()
  for (const row of rows) {
    if (row.ip === '') continue
    let ips = ipsOf.get(row.host)
    if (ips === undefined) ipsOf.set(row.host, (ips = new Set()))
    ips.add(row.ip)
  }
  for (const group of byHost.values()) group.ips = [...(ipsOf.get(group.host) ?? [])].sort()
  const shown = cap === null ? entries : entries.slice(0, cap)
  return {
    domain,
    // The domain itself first, then its names in tree order (a.example.com next to b.a.example.com).
    groups: [...byHost.values()].sort((a, b) => cmpText(reverseLabels(a.host), reverseLabels(b.host))),
    ranks: sortRanks(kept, DOMAIN_COLUMNS.map(([k]) => k)),
    events: rows.length,
    leaks: seen.leaks.length,
    hidden: rows.length - kept.length,
    subdomains: shown.map((e) => ({ name: e.subdomain, distinctIps: e.distinct_ips, ips: [...(ipsOf.get(e.subdomain) ?? [])].sort(), lastSeen: e.last_seen })),
    subdomainsHidden: entries.length - shown.length,
    subdomainCap: cap,
    planName,
    headers: sortHeaders(DOMAIN_COLUMNS, sort),
    sort,
  }
}

const cmpText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

