/** What the host page shows: the address and what is known about it, its findings and its services. */
import { canonicalDomain, reverseLabels } from '../names/domain.js'
import type { SeenLookup } from '../store/types.js'
import { type ProtocolTable, protocolTables } from './protocol-view.js'
import { type EventRow, type FindingRow, findingRow, type ServiceRow, serviceRow } from './rows.js'
import { type Sort, type SortHeader, type SortKey, sortHeaders, sortRanks, sortRows } from './sort.js'

/** Most rows one page draws (findings and services together); the rest are counted, not drawn. */
export const MAX_ROWS = 500

/** Port first: at 360 px the first columns are the ones in view. */
export const FINDING_COLUMNS: readonly [SortKey, string][] = [
  ['port', 'Port'],
  ['severity', 'Severity'],
  ['finding', 'Finding'],
  ['plugin', 'Plugin'],
  ['fingerprint', 'Fingerprint'],
  ['first', 'First seen'],
  ['last', 'Last seen'],
  ['days', 'Days open'],
]

/** The protocol objects of one event, with where it was seen. */
export interface ProtocolGroup {
  row: EventRow
  tables: ProtocolTable[]
}

export interface HostView {
  ip: string
  /** The port the page is limited to (`?port=443`, the search box's `ip:port`), or ''. */
  port: string
  /** Host names of its events (canonical, sorted in tree order), each linking to its domain page. */
  names: string[]
  reverse: string[]
  /** Organisation, `AS…`, network range: the parts known, in that order. */
  network: string[]
  /** City, region, country: the parts known; and the coordinates, '' when unknown. */
  place: string[]
  coordinates: string
  findings: FindingRow[]
  services: ServiceRow[]
  /** Per finding drawn: its `data-r` ranks for sorting in the page. */
  ranks: Map<FindingRow, string>
  /** Events drawn that carry protocol objects, findings first then services (as drawn). */
  protocols: ProtocolGroup[]
  /** All findings and services known (on the port, when limited to one), drawn or not. */
  findingCount: number
  serviceCount: number
  /** Rows left out by MAX_ROWS. */
  hidden: number
  headers: SortHeader[]
  sort: Sort
}

/** The host page's data for canonical address `ip`; with `port`, only the events on that port. */
export function hostView(ip: string, seen: SeenLookup, sort: Sort, port = ''): HostView {
  const onPort = <R extends EventRow>(rows: R[]) => (port === '' ? rows : rows.filter((r) => r.port === port))
  const findings = sortRows(onPort(seen.leaks.map(findingRow)), sort)
  const services = onPort(seen.services.map(serviceRow)).sort((a, b) => portOf(a) - portOf(b) || (a.lastAt < b.lastAt ? 1 : a.lastAt > b.lastAt ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  const all: EventRow[] = [...findings, ...services]
  const keptFindings = findings.slice(0, MAX_ROWS)
  const keptServices = services.slice(0, Math.max(0, MAX_ROWS - keptFindings.length))
  const geo = latest(all, (e) => e.event.geoip.country_name !== '' || e.event.geoip.city_name !== '' || e.event.geoip.location.lat !== 0)?.event.geoip
  const net = latest(all, (e) => e.event.network.asn !== 0 || e.event.network.organization_name !== '' || e.event.network.network !== '')?.event.network
  const names = new Set<string>()
  // The host's names whatever the port filter: they describe the host, not the rows shown.
  const everyRow: EventRow[] = port === '' ? all : [...seen.leaks.map(findingRow), ...seen.services.map(serviceRow)]
  for (const row of everyRow) {
    const name = row.host === '' ? null : canonicalDomain(row.host)
    if (name !== null && name === row.host) names.add(name)
  }
  const drawn: EventRow[] = [...keptFindings, ...keptServices]
  return {
    ip,
    port,
    names: [...names].sort((a, b) => cmpText(reverseLabels(a), reverseLabels(b))),
    reverse: [...new Set(all.map((e) => e.event.reverse).filter((r) => r !== ''))].sort(),
    network: net ? [net.organization_name, net.asn === 0 ? '' : `AS${net.asn}`, net.network].filter((x) => x !== '') : [],
    place: geo ? [geo.city_name, geo.region_name, geo.country_name || geo.country_iso_code].filter((x) => x !== '') : [],
    coordinates: geo && (geo.location.lat !== 0 || geo.location.lon !== 0) ? `${geo.location.lat}, ${geo.location.lon}` : '',
    findings: keptFindings,
    services: keptServices,
    ranks: sortRanks(keptFindings, FINDING_COLUMNS.map(([k]) => k)),
    protocols: drawn.map((row) => ({ row, tables: protocolTables(row.event) })).filter((g) => g.tables.length > 0),
    findingCount: findings.length,
    serviceCount: services.length,
    hidden: all.length - keptFindings.length - keptServices.length,
    headers: sortHeaders(FINDING_COLUMNS, sort, port === '' ? '' : `port=${encodeURIComponent(port)}&`),
    sort,
  }
}

const cmpText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

const portOf = (row: EventRow) => (row.port === '' ? -1 : Number(row.port))

/** The most recently seen row that has the wanted detail. */
function latest(rows: EventRow[], has: (row: EventRow) => boolean): EventRow | undefined {
  let best: EventRow | undefined
  for (const row of rows) if (has(row) && (best === undefined || row.lastAt > best.lastAt)) best = row
  return best
}
