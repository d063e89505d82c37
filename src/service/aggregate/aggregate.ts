/**
 * aggregate(): one resource's events, with the times each was first and last seen, made into an
 * aggregation document (src/schema/aggregation.ts), as the bulk export writes one per line.
 * Pure: the same events, times and `now` give the same document, whichever store they came from
 * and in whatever order. Every member is always present and never null (docs/service.md,
 * "Aggregations", says why each member is what it is).
 */
import { type Aggregation, emptyEvent, type Event, type GeoIp, type Network } from '../../schema/index.js'
import { compareTimeText, formatTime, type Instant, parseTime } from '../../time/index.js'
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
  const members = items.map((item) => {
    const e = item.event
    return { item, leak: e.event_type === 'leak', source: e.event_source, fingerprint: e.event_fingerprint, host: e.host, port: e.port, time: e.time, first: instantOf(item.firstSeen), last: instantOf(item.lastSeen) }
  })
  const s = summarize(members, now, options)
  // One spelling of the address: each event's `ip` as the aggregation's (canonical) `ip`.
  const events = s.sorted.map((m) => (m.item.event.ip === '' || resource.ip === '' || m.item.event.ip === resource.ip ? m.item.event : { ...m.item.event, ip: resource.ip }))
  const geoip = events.find((e) => hasGeoIp(e.geoip))?.geoip
  const network = events.find((e) => hasNetwork(e.network))?.network
  return {
    summary: events[0]!.summary,
    ip: resource.ip,
    resource_id: resource.id,
    open_ports: s.open_ports,
    leak_count: s.leak_count,
    leak_event_count: s.leak_event_count,
    events,
    plugins: s.plugins,
    // Copies (an event's own objects stay its own); member by member: structuredClone costs more than the rest together.
    geoip: geoip === undefined ? emptyEvent().geoip : { ...geoip, location: { ...geoip.location } },
    network: network === undefined ? emptyEvent().network : { ...network },
    creation_date: s.creation_date,
    update_date: s.update_date,
    fresh: s.fresh,
  }
}

/** What the order and the counts of an aggregation read of each event (an Event or the bulk export's facts). */
export interface Member {
  leak: boolean
  source: string
  fingerprint: string
  host: string
  port: string
  /** The event's `time` (canonical RFC 3339). */
  time: string
  /** When the event's identity was first and last seen. */
  first: Instant
  last: Instant
}

/** The members of an aggregation that do not copy an event's values. */
export interface Summary<M extends Member> {
  /** The members newest first (by `time`; equal times by fingerprint, host, port and source). */
  sorted: M[]
  open_ports: string[]
  leak_count: number
  leak_event_count: number
  plugins: string[]
  creation_date: string
  update_date: string
  fresh: boolean
}

/** The order and the counts of one resource's members (at least one). */
export function summarize<M extends Member>(members: readonly M[], now: Instant, options: AggregateOptions = {}): Summary<M> {
  const window = options.freshWindow ?? FRESH_WINDOW
  if (members.length === 1) {
    // One event (most resources): nothing to order or compare.
    const m = members[0]!
    const update = m.last
    const created = formatTime(m.first)
    return {
      sorted: [m],
      open_ports: m.port === '' ? [] : [m.port],
      leak_count: m.leak ? 1 : 0,
      leak_event_count: m.leak ? 1 : 0,
      plugins: m.source === '' ? [] : [m.source],
      creation_date: created,
      update_date: m.last === m.first ? created : formatTime(update),
      fresh: now - update <= window,
    }
  }
  if (members.length <= FEW) return summarizeFew(members, now, window)
  const sorted = [...members].sort(newestFirst)
  // One pass for the counts (the bulk export makes one per resource: no array per member).
  const ports = new Set<string>()
  const plugins = new Set<string>()
  const leaks = new Set<string>()
  let leakEvents = 0
  let created = sorted[0]!.first
  let update = sorted[0]!.last
  for (const m of sorted) {
    if (m.first < created) created = m.first
    if (m.last > update) update = m.last
    if (m.port !== '') ports.add(m.port)
    if (m.source !== '') plugins.add(m.source)
    if (!m.leak) continue
    leakEvents++
    leaks.add(leakKey(m.source, hostKey(m.host), m.port))
  }
  return {
    sorted,
    open_ports: [...ports].sort(portOrder),
    leak_count: leaks.size,
    leak_event_count: leakEvents,
    plugins: [...plugins].sort(byteOrder),
    creation_date: formatTime(created),
    update_date: formatTime(update),
    fresh: now - update <= window,
  }
}

/** Up to this many members, summarize() compares them pair by pair (no sets, no keys): most resources have a few events. */
const FEW = 8

/** summarize() of a few members (two to FEW): the same answer, sorted by insertion, counted by comparing pairs. */
function summarizeFew<M extends Member>(members: readonly M[], now: Instant, window: bigint): Summary<M> {
  const sorted = members.slice()
  for (let i = 1; i < sorted.length; i++) {
    const m = sorted[i]!
    let j = i - 1
    for (; j >= 0 && newestFirst(sorted[j]!, m) > 0; j--) sorted[j + 1] = sorted[j]!
    sorted[j + 1] = m
  }
  const ports: string[] = []
  const plugins: string[] = []
  // Each member's host key, made only when two leaks differ in nothing else.
  const keys: (string | undefined)[] = []
  const keyOf = (i: number) => (keys[i] ??= hostKey(sorted[i]!.host))
  let leaks = 0
  let leakEvents = 0
  let created = sorted[0]!.first
  let update = sorted[0]!.last
  for (let i = 0; i < sorted.length; i++) {
    const m = sorted[i]!
    if (m.first < created) created = m.first
    if (m.last > update) update = m.last
    if (m.port !== '' && !ports.includes(m.port)) ports.push(m.port)
    if (m.source !== '' && !plugins.includes(m.source)) plugins.push(m.source)
    if (!m.leak) continue
    leakEvents++
    let counted = false
    for (let j = 0; j < i && !counted; j++) {
      const o = sorted[j]!
      counted = o.leak && o.source === m.source && o.port === m.port && (o.host === m.host || keyOf(j) === keyOf(i))
    }
    if (!counted) leaks++
  }
  return {
    sorted,
    open_ports: ports.sort(portOrder),
    leak_count: leaks,
    leak_event_count: leakEvents,
    plugins: plugins.sort(byteOrder),
    creation_date: formatTime(created),
    update_date: formatTime(update),
    fresh: now - update <= window,
  }
}

/** A leak's identity as one string: source and host key with their lengths first, so that no two identities share one. */
const leakKey = (source: string, host: string, port: string) => `${source.length},${host.length},${source}${host}${port}`

/** The instant of a canonical time (a RangeError for anything else: the stores write canonical times). */
export function instantOf(text: string): Instant {
  const parsed = parseTime(text)
  if (!parsed.ok) throw new RangeError(`aggregate: ${parsed.reason}`)
  return parsed.value
}

/** Newest first; equal times by fingerprint, host, port and source, so the order never depends on the input's. */
function newestFirst(x: Member, y: Member): number {
  return compareTimeText(y.time, x.time) || byteOrder(x.fingerprint, y.fingerprint) || byteOrder(x.host, y.host) || byteOrder(x.port, y.port) || byteOrder(x.source, y.source)
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const portOrder = (a: string, b: string) => Number(a) - Number(b) || byteOrder(a, b)
const hostKey = (host: string) => (host === '' ? '' : (canonicalDomain(host) ?? host))

/** Whether a geoip member says anything (the aggregation takes the newest that does). */
export const hasGeoIp = (g: GeoIp) =>
  g.continent_name !== '' || g.region_iso_code !== '' || g.city_name !== '' || g.country_iso_code !== '' || g.country_name !== '' || g.region_name !== '' || g.location.lat !== 0 || g.location.lon !== 0
/** Whether a network member says anything. */
export const hasNetwork = (n: Network) => n.organization_name !== '' || n.asn !== 0 || n.network !== ''
