/**
 * The bulk export's lines: a stream of matching events, one resource's events together
 * (Store.searchByResource), made into one aggregation per resource. Only the current resource's
 * events are held, so memory is bounded by the largest resource, not the export. Each line
 * carries its events as the stored canonical bytes (not re-serialised), the other members as
 * JSON.stringify writes them, in the schema's member order.
 */
import type { Event } from '../../schema/index.js'
import type { Instant } from '../../time/index.js'
import type { SeenEvent } from '../store/types.js'
import { aggregate, type SeenItem } from './aggregate.js'
import { resourceOf } from './resource.js'

const COMMA = Buffer.from(',')
const EVENTS_OPEN = Buffer.from(',"events":[')
const EVENTS_CLOSE = Buffer.from('],')

/** One aggregation (as UTF-8 JSON, no newline) per resource of `items`, in the order the resources come. */
export async function* aggregationLines(items: AsyncIterable<SeenEvent>, now: Instant): AsyncGenerator<Buffer> {
  let group: SeenItem[] = []
  let bytes = new Map<Event, Uint8Array>()
  let current: string | undefined
  for await (const item of items) {
    const event = JSON.parse(Buffer.from(item.json.buffer, item.json.byteOffset, item.json.byteLength).toString('utf8')) as Event
    const id = resourceOf(event).id
    if (current !== undefined && id !== current) {
      yield aggregationLine(group, bytes, now)
      group = []
      bytes = new Map()
    }
    current = id
    group.push({ event, firstSeen: item.firstSeen, lastSeen: item.lastSeen })
    bytes.set(event, item.json)
  }
  if (group.length > 0) yield aggregationLine(group, bytes, now)
}

/** The aggregation of one resource's items; `bytes` gives each event's stored JSON. */
export function aggregationLine(items: readonly SeenItem[], bytes: ReadonlyMap<Event, Uint8Array>, now: Instant): Buffer {
  const a = aggregate(items, now)
  const head = JSON.stringify({ summary: a.summary, ip: a.ip, resource_id: a.resource_id, open_ports: a.open_ports, leak_count: a.leak_count, leak_event_count: a.leak_event_count })
  const tail = JSON.stringify({ plugins: a.plugins, geoip: a.geoip, network: a.network, creation_date: a.creation_date, update_date: a.update_date, fresh: a.fresh })
  const parts: Uint8Array[] = [Buffer.from(head.slice(0, -1)), EVENTS_OPEN]
  a.events.forEach((event, i) => {
    if (i > 0) parts.push(COMMA)
    parts.push(bytes.get(event) ?? Buffer.from(JSON.stringify(event)))
  })
  parts.push(EVENTS_CLOSE, Buffer.from(tail.slice(1)))
  return Buffer.concat(parts)
}
