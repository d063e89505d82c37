/**
 * One masscan result, whichever output format it came from, and the event it becomes.
 * Every format reader (console, list, JSON, JSON Lines) produces MasscanRecords; this module
 * alone decides what they mean, so the same result converts the same way from any format.
 */
import { isIP } from 'node:net'
import type { Event } from '../../schema/index.js'
import { emptyEvent } from '../../schema/empty.js'
import { formatTime, parseEpoch } from '../../time/index.js'
import type { Unconvertible } from '../common/records.js'
import { applyBanner } from './banner.js'

export interface MasscanRecord {
  ip: string
  /** As written: a number, or digits in a string (console and list). */
  port: number | string
  /** `tcp`, `udp`, `sctp`, `icmp` or `arp`. */
  proto: string
  /** `open`, `closed`, `up` (ARP); `banner` for banner records. */
  status: string
  /** Unix seconds (a string in JSON output); absent in the console and in the oldest JSON. */
  timestamp: number | string | undefined
  /** Banner records: masscan's name for the banner type (`http`, `title`, `ssh`, `X509`, …). */
  service?: string
  /** Banner records: the banner text with masscan's escapes already decoded. */
  banner?: string
  /** Console ARP results. */
  mac?: string
  vendor?: string
}

const PROTOS = new Set(['tcp', 'udp', 'sctp', 'icmp', 'arp'])
/** Statuses that mean "something answered": open ports, and hosts up in ARP scans. */
const OPEN = new Set(['open', 'up'])

/**
 * The event draft for a record (finishEvent() still to run): a `service` event for an open
 * port (or an ARP/ICMP reply, without a port), one for each banner record; nothing for
 * closed ports; the reason when the record is bad.
 */
export function recordDraft(record: MasscanRecord, runStart: string): Event | Unconvertible | undefined {
  const problem = (reason: string): Unconvertible => ({ reason })
  const isBanner = record.status === 'banner'
  if (!isBanner && !OPEN.has(record.status)) return undefined
  if (isIP(record.ip) === 0) return problem(`'${record.ip}' is not an IP address`)
  if (!PROTOS.has(record.proto)) return problem(`'${record.proto}' is not a protocol masscan reports`)
  const port = Number(record.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (typeof record.port === 'string' && !/^\d+$/.test(record.port))) {
    return problem(`'${record.port}' is not a port number`)
  }
  let time = runStart
  if (record.timestamp !== undefined) {
    const parsed = parseEpoch(record.timestamp, 's')
    if (!parsed.ok) return problem(`bad timestamp: ${parsed.reason}`)
    time = formatTime(parsed.value)
  }

  const event = emptyEvent()
  event.event_type = 'service'
  event.ip = record.ip
  // ICMP and ARP replies carry port 0: they say a host is up, not which port is open.
  const hasPort = record.proto !== 'icmp' && record.proto !== 'arp'
  event.port = hasPort ? String(port) : ''
  event.transport = [record.proto]
  event.mac = record.mac ?? ''
  event.vendor = record.vendor ?? ''
  event.time = time
  if (isBanner) applyBanner(event, record.service ?? '', record.banner ?? '')
  else event.summary = statusLine(record, port)
  return event
}

/** What masscan prints on the console for the result: `Discovered open port 80/tcp on 192.0.2.1`. */
function statusLine(record: MasscanRecord, port: number): string {
  let text = `Discovered ${record.status} port ${port}/${record.proto} on ${record.ip}`
  if (record.mac) text += ` (${record.mac})${record.vendor ? ` ${record.vendor}` : ''}`
  return text
}
