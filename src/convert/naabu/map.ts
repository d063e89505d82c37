/**
 * One naabu JSON Lines record (one open port) → one minimal `service` event: address, port,
 * transport (`protocol`, plus `tls` when naabu saw TLS), MAC address, time.
 */
import { emptyEvent } from '../../schema/empty.js'
import { ipVersion, portText, setAddress } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import { type Json, obj, str } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** One naabu record → one event, or why not. */
export function mapNaabu(r: Json, ctx: ConvertContext): Mapped {
  const time = eventTime(r.timestamp, ctx)
  if (!time.ok) return time
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = time.value
  const ip = str(r.ip)
  const host = str(r.host)
  // `host` is omitted when equal to the IP; older releases wrote the IP there too.
  if (ip !== '' && ipVersion(ip) === 0) return { reason: `ip '${ip}' is not an IP address` }
  setAddress(e, ip)
  if (host !== '' && host !== ip) setAddress(e, host)
  if (e.ip === '' && e.host === '') return { reason: 'no ip or host' }

  // `port` is a number; very old releases nested it as {"Port", "Protocol", "TLS"}.
  const nested = obj(r.port)
  const port = portText(nested ? nested.Port ?? nested.port : r.port)
  if (!port) return { reason: `port ${JSON.stringify(r.port ?? null)} is not 1–65535` }
  e.port = port
  const protocol = str(r.protocol ?? nested?.Protocol).toLowerCase()
  e.transport = [protocol === 'udp' || protocol === '1' ? 'udp' : 'tcp']
  if (r.tls === true || nested?.TLS === true) {
    e.transport.push('tls')
    e.ssl.detected = true
    e.ssl.enabled = true
  }
  e.mac = str(r.mac_address ?? r.mac).toLowerCase()
  return e
}
