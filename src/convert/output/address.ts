/** The address part shared by the hostport and human outputs. */
import type { Event } from '../../schema/index.js'

/** `ip` (IPv6 in brackets), else `host`, else ''. */
export function addressOf(event: Pick<Event, 'ip' | 'host'>): string {
  if (event.ip !== '') return event.ip.includes(':') && !event.ip.startsWith('[') ? `[${event.ip}]` : event.ip
  return event.host
}
