/** One nmap host → one `service` event per open port (both readers end here). */
import { isIP } from 'node:net'
import type { Event } from '../../schema/index.js'
import { emptyEvent } from '../../schema/empty.js'
import { formatSeconds, secondsInRange } from '../../time/format.js'
import { formatTime, parseEpoch } from '../../time/index.js'
import { sshMajor } from '../common/tls.js'
import { finishEvent } from '../finish.js'
import { unescapeBanner } from '../masscan/lines.js'
import { recordDraft } from '../masscan/record.js'
import type { ConvertContext, Problem } from '../types.js'
import { nmapDraftCanonical } from './canonical.js'
import type { NmapHost, NmapPort, NmapRun } from './model.js'
import { applyScripts, scriptBlock } from './scripts.js'
import { fillSoftware, isTls, portLine, protocolOf, transportOf } from './service.js'

const PORT_PROTOCOLS = new Set(['tcp', 'udp', 'sctp'])

/** nmap's own spelling of a time: whole Unix seconds (anything else takes parseEpoch). */
const WHOLE_SECONDS = /^\d{1,11}$/

/** The host's time: its `starttime`, else its `endtime` (masscan's XML), else the run's start. */
export function hostTime(host: NmapHost, run: NmapRun, ctx: ConvertContext): string {
  for (const seconds of [host.starttime, host.endtime, run.start]) {
    if (seconds === '') continue
    // Plain numbers, without parseEpoch's bigint nanoseconds; the same text for whole seconds.
    if (WHOLE_SECONDS.test(seconds) && secondsInRange(Number(seconds))) return formatSeconds(Number(seconds), '')
    const parsed = parseEpoch(seconds, 's')
    if (parsed.ok) return formatTime(parsed.value)
  }
  return ctx.runStart
}

/**
 * Events for a host: none when it is down or has no open port; otherwise one per open
 * port. A port that cannot be converted (bad port number, no address) is a Problem.
 */
export function hostEvents(host: NmapHost, run: NmapRun, ctx: ConvertContext): (Event | Problem)[] {
  if (host.state === 'down' || host.ports.every((port) => port.protocol === 'ip')) return []
  if (run.scanner === 'masscan') return masscanHostEvents(host, run, ctx)
  if (isIP(host.ip) === 0) {
    const reason = host.ip === '' ? 'host has open ports but no IPv4/IPv6 address' : `'${host.ip}' is not an IP address`
    return [{ kind: 'problem', where: host.where, line: host.line, reason }]
  }
  const shared = hostShared(host, run, ctx)
  // An IP protocol scan (-sO) lists protocols as `protocol="ip"` ports: no service behind them.
  const out: (Event | Problem)[] = []
  for (const port of host.ports) if (port.protocol !== 'ip') portEvent(host, port, shared, ctx, out)
  return out
}

/** What every port event of a host shares, worked out once per host. */
interface HostShared {
  time: string
  /** The first user-given name and the first reverse-DNS name. */
  host: string
  reverse: string
  /** Host-level lines appended to every port's summary. */
  tail: string
}

function hostShared(host: NmapHost, run: NmapRun, ctx: ConvertContext): HostShared {
  const user = host.hostnames.filter((h) => h.type === 'user')
  const ptr = host.hostnames.filter((h) => h.type === 'PTR')
  return { time: hostTime(host, run, ctx), host: user[0]?.name ?? '', reverse: ptr[0]?.name ?? '', tail: hostTail(host, user, ptr) }
}

/**
 * The port's event into `out`, or the problem that keeps it from being one; after the event,
 * what its scripts held that could not be written (a host key that contradicts nmap's own
 * fingerprint), each a problem of the port.
 */
function portEvent(host: NmapHost, port: NmapPort, shared: HostShared, ctx: ConvertContext, out: (Event | Problem)[]): void {
  if (!/^\d{1,5}$/.test(port.portid) || Number(port.portid) > 65535) {
    out.push({ kind: 'problem', where: port.where, line: port.line, reason: `'${port.portid}' is not a port number` })
    return
  }
  if (!PORT_PROTOCOLS.has(port.protocol)) {
    out.push({ kind: 'problem', where: port.where, line: port.line, reason: `'${port.protocol}' is not a port protocol (tcp, udp, sctp)` })
    return
  }
  const event = emptyEvent()
  event.event_type = 'service'
  event.ip = host.ip
  event.mac = host.mac
  event.vendor = host.vendor
  event.host = shared.host
  event.reverse = shared.reverse
  event.port = String(Number(port.portid))
  event.time = shared.time
  const service = port.service
  event.protocol = protocolOf(service)
  event.transport = transportOf(port.protocol, service)
  if (isTls(service)) {
    event.ssl.enabled = true
    event.ssl.detected = true
  }
  fillSoftware(event, service)
  sshVersion(event, service ? service.extrainfo || service.fullversion : '')
  const unwritten = applyScripts(event, port.scripts)

  const lines = [portLine(port.portid, port.protocol, service)]
  if (service && service.banner !== '') lines.push(service.banner)
  for (const script of port.scripts) if (script.output !== '') lines.push(scriptBlock(script))
  event.summary = lines.join('\n') + shared.tail
  out.push(finishEvent(event, 'nmap', ctx, port.where, port.line, nmapDraftCanonical(event, ctx)))
  if (unwritten) for (const reason of unwritten) out.push({ kind: 'problem', where: port.where, line: port.line, reason })
}

/**
 * masscan's nmap-style XML: one `<host>` per result, a banner as `<service name banner>`.
 * Converted as masscan's other formats are, so a result reads the same from any of them.
 */
function masscanHostEvents(host: NmapHost, run: NmapRun, ctx: ConvertContext): (Event | Problem)[] {
  const out: (Event | Problem)[] = []
  for (const port of host.ports) {
    // masscan writes `<service>` only for banner records (the banner may be empty).
    const service = port.service
    const banner = service !== undefined
    const draft = recordDraft(
      {
        ip: host.ip,
        port: port.portid,
        proto: port.protocol,
        status: banner ? 'banner' : port.state,
        timestamp: host.endtime || host.starttime || run.start || undefined,
        ...(banner ? { service: service.name, banner: unescapeBanner(service.banner) } : {}),
      },
      ctx.runStart,
    )
    if (draft === undefined) continue
    if ('reason' in draft) out.push({ kind: 'problem', where: port.where, line: port.line, reason: draft.reason })
    else out.push(finishEvent(draft, 'masscan', ctx, port.where, port.line))
  }
  return out
}

/** `protocol 2.0` in nmap's extra info → `ssh.version` 2 (1.99 announces version 2 as well). */
function sshVersion(event: Event, extrainfo: string): void {
  if (event.protocol !== 'ssh') return
  const m = /\bprotocol (\d+\.\d+)/.exec(extrainfo)
  if (m) event.ssh.version = sshMajor(m[1]!)
}

/** Host-level text appended to every port's summary: other names, OS match, host scripts. */
function hostTail(host: NmapHost, user: NmapHost['hostnames'], ptr: NmapHost['hostnames']): string {
  const lines: string[] = []
  const others = [...user.slice(1), ...ptr.slice(1), ...host.hostnames.filter((h) => h.type !== 'user' && h.type !== 'PTR')]
  if (others.length > 0) lines.push(`Other hostnames: ${others.map((h) => `${h.name} (${h.type})`).join(', ')}`)
  if (host.os) lines.push(`OS: ${host.os.name}${host.os.accuracy === '' ? '' : ` (${host.os.accuracy}%)`}`)
  if (host.hostScripts.length > 0) {
    lines.push('Host script results:')
    for (const script of host.hostScripts) if (script.output !== '') lines.push(scriptBlock(script))
  }
  return lines.length === 0 ? '' : `\n${lines.join('\n')}`
}
