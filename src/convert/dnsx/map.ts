/**
 * One dnsx JSON line (a name and its answers) → one minimal `service` event per A and AAAA
 * answer (the rule; the format's filter tool does the same): `host` the queried name,
 * `ip` the address, `summary` the answers that led there (`name CNAME target`, `name A ip`).
 * No port: dnsx does not probe any. A name without A/AAAA answers gives no event (like a host
 * with no open port). Time: dnsx's `timestamp`, else the run's start.
 */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { ipVersion, setAddress } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import { type Json, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** The rule for dnsx answers (the filter tool calls them resolve events). */
export const DNSX_EVENT_TYPE = 'service'

/** One dnsx record → one event per A/AAAA answer. */
export function mapDnsx(r: Json, ctx: ConvertContext): Mapped {
  const name = str(r.host).trim().toLowerCase().replace(/\.$/, '')
  if (name === '') return { reason: 'no host (the queried name)' }
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  const cnames = strings(r.cname).map((c) => `${name} CNAME ${c.toLowerCase().replace(/\.$/, '')}`)
  const out: Event[] = []
  const answer = (type: 'A' | 'AAAA', ip: string) => {
    const e = emptyEvent()
    e.event_type = DNSX_EVENT_TYPE
    e.time = time.value
    setAddress(e, name)
    setAddress(e, ip)
    e.summary = [...cnames, `${name} ${type} ${ip}`].join('\n')
    out.push(e)
  }
  for (const a of strings(r.a)) if (ipVersion(a) === 4) answer('A', a)
  for (const a of strings(r.aaaa)) if (ipVersion(a) === 6) answer('AAAA', a)
  return out
}
