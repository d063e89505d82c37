/** What the host page shows: the address and what is known about it, its findings and its services. */
import type { SeenLookup } from '../store/types.js'
import { type EventRow, type FindingRow, findingRow, type ServiceRow, serviceRow } from './rows.js'
import { type Sort, type SortHeader, type SortKey, sortHeaders, sortRows } from './sort.js'

/** Most rows one page draws (findings and services together); the rest are counted, not drawn. */
export const MAX_ROWS = 500

export const FINDING_COLUMNS: readonly [SortKey, string][] = [
  ['severity', 'Severity'],
  ['finding', 'Finding'],
  ['plugin', 'Plugin'],
  ['port', 'Port'],
  ['fingerprint', 'Fingerprint'],
  ['first', 'First seen'],
  ['last', 'Last seen'],
  ['days', 'Days open'],
]

export interface HostView {
  ip: string
  reverse: string[]
  /** Organisation, `AS…`, network range: the parts known, in that order. */
  network: string[]
  /** City, region, country: the parts known; and the coordinates, '' when unknown. */
  place: string[]
  coordinates: string
  findings: FindingRow[]
  services: ServiceRow[]
  /** All findings and services known, drawn or not. */
  findingCount: number
  serviceCount: number
  /** Rows left out by MAX_ROWS. */
  hidden: number
  headers: SortHeader[]
  sort: Sort
}

/** The host page's data for canonical address `ip`. */
export function hostView(ip: string, seen: SeenLookup, sort: Sort): HostView {
  const findings = sortRows(seen.leaks.map(findingRow), sort)
  const services = seen.services.map(serviceRow).sort((a, b) => portOf(a) - portOf(b) || (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const all: EventRow[] = [...findings, ...services]
  const keptFindings = findings.slice(0, MAX_ROWS)
  const keptServices = services.slice(0, Math.max(0, MAX_ROWS - keptFindings.length))
  const geo = latest(all, (e) => e.event.geoip.country_name !== '' || e.event.geoip.city_name !== '' || e.event.geoip.location.lat !== 0)?.event.geoip
  const net = latest(all, (e) => e.event.network.asn !== 0 || e.event.network.organization_name !== '' || e.event.network.network !== '')?.event.network
  return {
    ip,
    reverse: [...new Set(all.map((e) => e.event.reverse).filter((r) => r !== ''))].sort(),
    network: net ? [net.organization_name, net.asn === 0 ? '' : `AS${net.asn}`, net.network].filter((x) => x !== '') : [],
    place: geo ? [geo.city_name, geo.region_name, geo.country_name || geo.country_iso_code].filter((x) => x !== '') : [],
    coordinates: geo && (geo.location.lat !== 0 || geo.location.lon !== 0) ? `${geo.location.lat}, ${geo.location.lon}` : '',
    findings: keptFindings,
    services: keptServices,
    findingCount: findings.length,
    serviceCount: services.length,
    hidden: all.length - keptFindings.length - keptServices.length,
    headers: sortHeaders(FINDING_COLUMNS, sort),
    sort,
  }
}

const portOf = (row: EventRow) => (row.port === '' ? -1 : Number(row.port))

/** The most recently seen row that has the wanted detail. */
function latest(rows: EventRow[], has: (row: EventRow) => boolean): EventRow | undefined {
  let best: EventRow | undefined
  for (const row of rows) if (has(row) && (best === undefined || row.lastAt > best.lastAt)) best = row
  return best
}
