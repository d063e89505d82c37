/**
 * One `ip:port`, `host:port` or `[ipv6]:port` line → one minimal `service` event (address,
 * port, transport `tcp`), as the format's own filter tool converts them, but with `time` the
 * run's start and `event_type`/`event_source` set.
 */
import { emptyEvent } from '../../schema/empty.js'
import { setAddress, splitHostPort } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import type { ConvertContext } from '../types.js'

/** One `host:port` line → one event, or why not. */
export function mapHostPort(line: string, ctx: ConvertContext): Mapped {
  // Tools append a protocol (`80/tcp`) or a note after blanks; the first word is the address.
  const word = line.split(/\s+/)[0] ?? ''
  const udp = /\/udp$/i.test(word)
  const hp = splitHostPort(word.replace(/\/(?:tcp|udp)$/i, ''))
  if ('reason' in hp) return hp
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = ctx.runStart
  setAddress(e, hp.host)
  e.port = hp.port
  e.transport = [udp ? 'udp' : 'tcp']
  return e
}
