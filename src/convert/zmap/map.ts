/**
 * One ZMap result (a CSV row named by the header row, or a JSON line of `-O json`) → one
 * minimal `service` event: `saddr` (the host that answered) → `ip`, `sport` (its port) →
 * `port` with transport `tcp` (ZMap's default probe; `udp` when the classification says so),
 * the time from `timestamp_ts` + `timestamp_us`, else `timestamp_str`, else the run's start.
 * Bare addresses (ZMap's default output with one port) give an event without a port: the
 * port was a command-line option, not in the output. A result that is not a success
 * (`success` 0, classification `rst`) is a closed port, and a `repeat` repeats an earlier
 * answer: no event for either.
 */
import { emptyEvent } from '../../schema/empty.js'
import { ipVersion, portText } from '../common/net.js'
import type { Mapped } from '../common/records.js'
import { eventTime } from '../common/time.js'
import type { ConvertContext } from '../types.js'

/** A result's fields by ZMap's names, as text. */
export type ZmapFields = Record<string, string>

const TRUE = new Set(['1', 'true'])
const CLOSED = new Set(['rst', 'unreach', 'icmp_unreach', 'port_unreach'])

/** One result → one event, none for a closed port or a repeat, or why not. */
export function mapZmapFields(f: ZmapFields, ctx: ConvertContext): Mapped {
  const ip = f.saddr ?? ''
  if (ipVersion(ip) === 0) return { reason: `saddr '${clip(ip)}' is not an IP address` }
  const classification = (f.classification ?? '').toLowerCase()
  if (f.success !== undefined && f.success !== '' ? !TRUE.has(f.success.toLowerCase()) : CLOSED.has(classification)) return []
  if (f.repeat !== undefined && TRUE.has(f.repeat.toLowerCase())) return []
  const time = zmapTime(f, ctx)
  if (!time.ok) return time
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = time.value
  e.ip = ip
  const sport = f.sport ?? ''
  if (sport !== '') {
    const port = portText(sport)
    if (!port) return { reason: `sport '${clip(sport)}' is not 1–65535` }
    e.port = port
    e.transport = [classification.startsWith('udp') ? 'udp' : 'tcp']
  } else if (classification === 'echoreply') e.transport = ['icmp']
  return e
}

/** `timestamp_ts` (seconds) with `timestamp_us` (its microseconds), else `timestamp_str`. */
function zmapTime(f: ZmapFields, ctx: ConvertContext) {
  const ts = f.timestamp_ts ?? ''
  const us = f.timestamp_us ?? ''
  if (ts !== '') {
    if (!/^\d+$/.test(ts)) return { ok: false as const, reason: `bad timestamp_ts: '${clip(ts)}' is not whole seconds` }
    if (us === '') return eventTime(ts, ctx)
    if (!/^\d{1,6}$/.test(us)) return { ok: false as const, reason: `bad timestamp_us: '${clip(us)}' is not 0–999999 microseconds` }
    return eventTime(`${ts}.${us.padStart(6, '0')}`, ctx)
  }
  // ZMap writes the offset without a colon (`+0200`), which RFC 3339 requires.
  const text = (f.timestamp_str ?? '').replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  return eventTime(text, ctx)
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text)
