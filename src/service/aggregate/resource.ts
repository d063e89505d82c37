/**
 * What resource an event belongs to (docs/service.md, "Aggregations"): its address, canonical,
 * taken from `ip` or, when `ip` is empty, from a `host` that is an IP literal (as the stores
 * index it); an event with no address belongs to its canonical host name. Host names on one
 * address are one resource: they share the machine, its open ports and its exposure.
 */
import type { Event } from '../../schema/index.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'

export interface Resource {
  /** The canonical address; '' for a resource known by host name only. */
  ip: string
  /** The address, or the canonical host name when there is none ('' when the event has neither). */
  id: string
}

/** The resource of an event. */
export function resourceOf(event: Pick<Event, 'ip' | 'host'>): Resource {
  const fromIp = event.ip === '' ? null : canonicalIp(event.ip)
  const ip = fromIp ?? (event.ip === '' && event.host !== '' ? canonicalIp(event.host) : null) ?? ''
  if (ip !== '') return { ip, id: ip }
  return { ip: '', id: event.host === '' ? '' : (canonicalDomain(event.host) ?? event.host) }
}
