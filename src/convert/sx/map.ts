/**
 * sx lines → minimal `service` events. sx prints plain lines (`IP  PORT  [FLAGS]` for TCP
 * scans, `IP  MAC  VENDOR` for ARP) or, with `--json`, one object per line:
 * `{"scan":"tcpsyn","ip":…,"port":22}` (scans `tcpsyn`, `tcpfin`, `tcpnull`, `tcpxmas`,
 * `tcpflags`, `udp`; ARP results carry `mac` and `vendor` instead of a port, and no `scan` in
 * early releases). Port results: address, port, transport `tcp` (`udp` for the UDP scan),
 * the scan as a tag (`scan:tcpfin`). ARP results: address, `mac`, `vendor`, transport `arp`,
 * no port (as masscan's ARP replies). Replies that mean "closed" give no event, as a closed
 * port gives none in every converter: TCP flags with `r` (RST) and ICMP replies to UDP probes.
 */
import { emptyEvent } from '../../schema/empty.js'
import { ipVersion, portText, setAddress } from '../common/net.js'
import { jsonLine } from '../common/lines.js'
import type { Mapped } from '../common/records.js'
import { type Json, obj, pushUnique, str } from '../common/values.js'
import type { ConvertContext } from '../types.js'

/** A MAC address as sx prints it (Go's net.HardwareAddr: lower-case, colons). */
export const MAC = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/i
/** A plain line: an address, then a port or a MAC address. */
export const PLAIN = /^(\S+)\s+(\d{1,5}|[0-9a-f]{2}(?::[0-9a-f]{2}){5})(?:\s+(.*))?$/i

/** One sx line (plain or JSON) → one event, none for a closed port, or why not. */
export function mapSx(line: string, ctx: ConvertContext): Mapped {
  if (line.startsWith('{')) {
    const parsed = jsonLine(line)
    return 'json' in parsed ? mapSxJson(parsed.json, ctx) : parsed
  }
  return mapSxPlain(line, ctx)
}

/** A plain line: `IP  PORT  [FLAGS]` or `IP  MAC  VENDOR`. */
export function mapSxPlain(line: string, ctx: ConvertContext): Mapped {
  const m = PLAIN.exec(line)
  if (!m) return { reason: `not an sx line (expected 'IP PORT' or 'IP MAC VENDOR'): ${line.length > 60 ? `${line.slice(0, 57)}...` : line}` }
  const [, ip = '', second = '', rest = ''] = m
  if (MAC.test(second)) return sxEvent(ctx, { scan: 'arp', ip, mac: second, vendor: rest.trim() })
  return sxEvent(ctx, { scan: '', ip, port: second, flags: rest.trim() })
}

/** A `--json` line. A record with neither a scan nor ARP's mac and vendor is not sx's (naabu's has neither). */
export function mapSxJson(r: Json, ctx: ConvertContext): Mapped {
  if (r.ip === undefined) return { reason: 'not an sx record: no ip' }
  if (obj(r.icmp)) return [] // an ICMP reply (the UDP scan's "port unreachable"): closed
  const mac = str(r.mac)
  const scan = str(r.scan) || (mac !== '' && r.port === undefined ? 'arp' : '')
  if (scan === '') return { reason: 'not an sx record: no scan (nor an ARP result: mac and vendor, no port)' }
  return sxEvent(ctx, { scan, ip: str(r.ip), port: r.port, mac, vendor: str(r.vendor), flags: str(r.flags) })
}

interface SxResult {
  scan: string
  ip: string
  port?: unknown
  mac?: string
  vendor?: string
  flags?: string
}

function sxEvent(ctx: ConvertContext, r: SxResult): Mapped {
  if (ipVersion(r.ip) === 0) return { reason: `ip '${r.ip}' is not an IP address` }
  if (r.flags && r.flags.toLowerCase().includes('r')) return [] // RST: the port is closed
  const e = emptyEvent()
  e.event_type = 'service'
  e.time = ctx.runStart // sx prints no time
  setAddress(e, r.ip)
  if (r.scan !== '') pushUnique(e.tags, `scan:${r.scan.toLowerCase()}`)
  if (r.scan === 'arp') {
    if (!MAC.test(r.mac ?? '')) return { reason: `mac '${r.mac ?? ''}' is not a MAC address` }
    e.mac = r.mac!.toLowerCase()
    e.vendor = r.vendor ?? ''
    e.transport = ['arp']
    e.summary = `${e.ip} is at ${e.mac}${e.vendor ? ` (${e.vendor})` : ''}`
    return e
  }
  const port = portText(r.port)
  if (!port) return { reason: `port ${JSON.stringify(r.port ?? null)} is not 1–65535` }
  e.port = port
  e.transport = [r.scan === 'udp' ? 'udp' : 'tcp']
  return e
}
