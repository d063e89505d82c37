/**
 * The aggregation document: one resource (an address, or a host name where no address is known)
 * with its events nested, one line of the bulk export (`GET /bulk/search`). Members in the order
 * LeakIX's clients list them (docs/specification.md). How each member is computed from a resource's
 * stored events: src/service/aggregate/aggregate.ts and docs/service.md ("Aggregations").
 */
import Type, { type Static } from 'typebox'
import { Event, GeoIp, Network } from './event.js'
import { flag, int, text, texts, time } from './fields.js'

export const Aggregation = Type.Object(
  {
    summary: text('Summary', 'The `summary` of the resource’s newest event (latest `time`).'),
    ip: text('IP', 'The resource’s address in canonical form; empty for a resource known by host name only.'),
    resource_id: text(
      'Resource id',
      'What the resource is: its canonical address, or its canonical host name when its events carry no address. Stable: the same events give the same id.',
    ),
    open_ports: texts('Open ports', 'The distinct non-empty `port`s of its events, in numeric order.'),
    leak_count: int('Leak count', 'Distinct leaks among its leak events: one per (`event_source`, `host`, `port`), however many events observed it.'),
    leak_event_count: int('Leak events', 'Its leak events (`event_type` `leak`), each stored event once; at least `leak_count`.'),
    events: Type.Array(Event, { title: 'Events', description: 'The resource’s events, newest first (by `time`, ties by fingerprint).' }),
    plugins: texts('Plugins', 'The distinct `event_source`s of its events, in byte order.'),
    geoip: GeoIp,
    network: Network,
    creation_date: time('Creation date', 'When the resource was first seen: the earliest first-seen time of its events, canonical UTC.'),
    update_date: time('Update date', 'When the resource was last seen: the latest last-seen time of its events, canonical UTC.'),
    fresh: flag('Fresh', 'Whether it was seen recently: `update_date` is at most 7 days before the time the aggregation was made.'),
  },
  {
    title: 'Aggregation',
    description:
      'One resource of the lookup service (an address, or a host name when its events carry no address) with its events nested: one line of GET /bulk/search.',
  },
)

export type Aggregation = Static<typeof Aggregation>
