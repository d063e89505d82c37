/**
 * aggregate(): one resource's events, with the times each was first and last seen, made into an
 * aggregation document (src/schema/aggregation.ts), as the bulk export writes one per line.
 * Pure: the same events, times and `now` give the same document, whichever store they came from
 * and in whatever order. Every member is always present and never null (docs/service.md,
 * "Aggregations", says why each member is what it is).
 */
import { type Aggregation, emptyEvent, type Event, type GeoIp, type Network } from '../../schema/index.js'
import { formatTime, type Instant, parseTime } from '../../time/index.js'
import { canonicalDomain } from '../names/domain.js'
import { resourceOf } from './resource.js'

/** An event of the resource with the times its identity was first and last observed (canonical RFC 3339). */
export interface SeenItem {
  event: Event
  firstSeen: string
  lastSeen: string
}

export interface AggregateOptions {
  /** How recently the resource must have been seen to be `fresh`, nanoseconds (default FRESH_WINDOW). */
  freshWindow?: bigint
}

/** Seen within this long before the aggregation is made: fresh (7 days, the longest window /api/plugins counts). */
export const FRESH_WINDOW = 7n * 86_400n * 1_000_000_000n

/**
 * The aggregation of `items`, all of one resource (resourceOf gives them one id), made at `now`
 * (nanoseconds since the Unix epoch, as time/ counts them). Throws a RangeError when `items` is
 * empty or spans several resources: the caller groups events first.
 */
export function aggregate(items: readonly SeenItem[], now: Instant, options: AggregateOptions = {}): Aggregation {
  if (items.length === 0) throw new RangeError('aggregate: a resource needs at least one event')
  const resource = resourceOf(items[0]!.event)
  for (const item of items) {
    if (resourceOf(item.event).id !== resource.id) throw new RangeError(`aggregate: events of ${JSON.stringify(resourceOf(item.event).id)} and ${JSON.stringify(resource.id)} are two resources`)
  }
  const sorted = items.map((item) => ({ ...item, at: instantOf(item.event.time) })).sort(newestFirst)
  const events = sorted.map((s) => s.event)
  const leaks = events.filter((e) => e.event_type === 'leak')
  const creation = min(items.map((i) => instantOf(i.firstSeen)))
  const update = max(items.map((i) => instantOf(i.lastSeen)))
  const geoip = events.find((e) => hasGeoIp(e.geoip))?.geoip
  const network = events.find((e) => hasNetwork(e.network))?.network
  return {
    summary: events[0]!.summary,
    ip: resource.ip,
    resource_id: resource.id,
    open_ports: distinct(events.map((e) => e.port)).sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0)),
    leak_count: distinct(leaks.map((e) => `${e.event_source}\n${hostKey(e.host)}\n${e.port}`)).length,
    leak_event_count: leaks.length,
    events,
    plugins: distinct(events.map((e) => e.event_source)).sort(byteOrder),
    // Copies (an event's own objects stay its own); member by member: structuredClone costs more than the rest together.
    geoip: geoip === undefined ? emptyEvent().geoip : { ...geoip, location: { ...geoip.location } },
    network: network === undefined ? emptyEvent().network : { ...network },
    creation_date: formatTime(creation),
    update_date: formatTime(update),
    fresh: now - update <= (options.freshWindow ?? FRESH_WINDOW),
  }
}

function instantOf(text: string): Instant {
  const parsed = parseTime(text)
  if (!parsed.ok) throw new RangeError(`aggregate: ${parsed.reason}`)
  return parsed.value
}

/** Newest first; equal times by fingerprint, host, port and source, so the order never depends on the input's. */
function newestFirst(a: { at: Instant; event: Event }, b: { at: Instant; event: Event }): number {
  if (a.at !== b.at) return a.at > b.at ? -1 : 1
  const x = a.event
  const y = b.event
  return byteOrder(x.event_fingerprint, y.event_fingerprint) || byteOrder(x.host, y.host) || byteOrder(x.port, y.port) || byteOrder(x.event_source, y.event_source)
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))]
const hostKey = (host: string) => (host === '' ? '' : (canonicalDomain(host) ?? host))
const min = (values: Instant[]) => values.reduce((a, b) => (b < a ? b : a))
const max = (values: Instant[]) => values.reduce((a, b) => (b > a ? b : a))

const hasGeoIp = (g: GeoIp) =>
  g.continent_name !== '' || g.region_iso_code !== '' || g.city_name !== '' || g.country_iso_code !== '' || g.country_name !== '' || g.region_name !== '' || g.location.lat !== 0 || g.location.lon !== 0
const hasNetwork = (n: Network) => n.organization_name !== '' || n.asn !== 0 || n.network !== ''
