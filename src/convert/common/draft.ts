/** The start of a `service` event for an address, a port and a time, each checked. */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import type { ConvertContext } from '../types.js'
import { portText } from './net.js'
import type { Unconvertible } from './records.js'
import { eventTime } from './time.js'

/**
 * An empty event with `event_type` `service`, `ip` (an IP literal, already checked), the port
 * (1–65535, as a number or decimal text) and the time (eventTime()); or why not.
 */
export function serviceDraft(ip: string, port: unknown, time: unknown, ctx: ConvertContext): Event | Unconvertible {
  const portValue = portText(port)
  if (!portValue) return { reason: `port ${JSON.stringify(port ?? null)} is not 1–65535` }
  const when = eventTime(time, ctx)
  if (!when.ok) return when
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = when.value
  e.ip = ip
  e.port = portValue
  return e
}
