/**
 * One ZGrab2 JSON line (one target) → one event per module that got an answer: `http`
 * (response head, title, TLS of an HTTPS request), `tls` (handshake and certificate), `ssh`
 * (identification string, host key, algorithm lists), and `ftp`, `smtp`, `telnet`, `mysql`,
 * `postgres`, `mongodb`, `redis` (their protocol objects, protocols.ts). Modules that found
 * nothing open (connection-refused, io-timeout, …) give no event; modules of other protocols
 * are reported.
 *
 * ZGrab2 does not write the port it scanned: it comes from a `port` member when present (some
 * builds and wrappers add one), else from the request URL, else the module's default port.
 */
import { emptyEvent } from '../../schema/empty.js'
import type { Event } from '../../schema/index.js'
import { HeaderBuilder, restoreDashes } from '../common/headers.js'
import { httpSummary, titleOf } from '../common/http.js'
import { DEFAULT_PORTS, ipVersion, portText, setAddress, splitHostPort } from '../common/net.js'
import { attachProtocols } from '../common/protocols.js'
import type { Mapped, Unconvertible } from '../common/records.js'
import { osOf, productToken, sshSoftware } from '../common/software.js'
import { eventTime } from '../common/time.js'
import { sshFingerprint, sshIdentification, sshMajor } from '../common/tls.js'
import { type Json, at, int, obj, str, strings } from '../common/values.js'
import type { ConvertContext } from '../types.js'
import { isProtocolModule, PROTOCOL_MODULE_NAMES, protocolModule, sshExtension } from './protocols.js'
import { fillHandshake, tlsSummary } from './tls.js'

/** One ZGrab2 line → one event per answering module, and reasons for the others. */
export function mapZgrab2(r: Json, ctx: ConvertContext): Mapped {
  const ip = str(r.ip)
  const domain = str(r.domain)
  if (ip === '' && domain === '') return { reason: 'no ip or domain' }
  if (ip !== '' && ipVersion(ip) === 0) return { reason: `ip '${ip}' is not an IP address` }
  const data = obj(r.data)
  if (!data) return { reason: 'no data member (expected {"ip", "domain", "data": {module: result}})' }
  const out: (Event | Unconvertible)[] = []
  for (const [name, value] of Object.entries(data)) {
    const module = obj(value)
    if (!module) {
      out.push({ reason: `data.${name}: expected an object` })
      continue
    }
    const result = obj(module.result)
    if (!result) continue // nothing answered (connection-refused, io-timeout, …)
    const time = eventTime(module.timestamp, ctx)
    if (!time.ok) {
      out.push({ reason: `data.${name}: ${time.reason}` })
      continue
    }
    const e = emptyEvent()
    e.event_type = 'service'
    e.time = time.value
    setAddress(e, ip)
    setAddress(e, domain)
    const port = portText(module.port) ?? portText(r.port)
    let problem: Unconvertible | undefined
    if (obj(result.response)) problem = http(e, obj(result.response)!, port)
    else if (obj(result.handshake_log)) problem = tls(e, obj(result.handshake_log)!, port)
    else if (obj(result.server_id) || obj(result.key_exchange)) ssh(e, result, port)
    else if (isProtocolModule(str(module.protocol) || name)) problem = protocolModule(e, str(module.protocol) || name, result, port)
    else if (str(module.status) === 'success') problem = { reason: `module '${str(module.protocol) || name}' is not converted (http, tls, ssh, ${PROTOCOL_MODULE_NAMES} are)` }
    else continue
    out.push(problem ? { reason: `data.${name}: ${problem.reason}` } : e)
  }
  return out
}

function http(e: Event, response: Json, port: string | undefined): Unconvertible | undefined {
  const request = obj(response.request) ?? {}
  const url = obj(request.url) ?? {}
  const scheme = (str(url.scheme) || 'http').toLowerCase()
  const hostPort = splitHostPort(str(url.host))
  if (e.host === '' && 'host' in hostPort && ipVersion(hostPort.host) === 0) setAddress(e, hostPort.host)
  e.port = port ?? ('port' in hostPort ? hostPort.port : DEFAULT_PORTS[scheme] ?? '80')
  const path = `${str(url.path)}${str(url.raw_query) ? `?${str(url.raw_query)}` : ''}`
  e.http.url = path === '/' ? '' : path
  e.http.status = int(response.status_code) ?? 0
  e.http.length = int(response.content_length) ?? 0
  e.http.title = titleOf(str(response.body))

  const headers = new HeaderBuilder()
  for (const [name, values] of Object.entries(obj(response.headers) ?? {})) {
    if (name === 'unknown' && Array.isArray(values)) {
      // Headers Go did not know: [{"key": name, "value": [values]}].
      for (const entry of values) for (const v of strings(obj(entry)?.value)) headers.add(restoreDashes(str(obj(entry)?.key)), v)
      continue
    }
    for (const v of strings(values)) headers.add(restoreDashes(name), v)
  }
  e.http.header = headers.map
  // `protocol` was an object {name, major, minor}; it is now the string itself.
  const protocol = obj(response.protocol) ? str(obj(response.protocol)!.name) : str(response.protocol)
  const statusLine = str(response.status_line) || (e.http.status ? String(e.http.status) : '')
  e.summary = httpSummary(`${protocol || 'HTTP'} ${statusLine}`.trim(), headers.lines(), e.http.title)
  const server = headers.map.server
  if (server) Object.assign(e.service.software, productToken(server))

  const handshake = obj(at(request, 'tls_log', 'handshake_log'))
  const secure = scheme === 'https' || handshake !== undefined
  e.transport = secure ? ['tcp', 'tls', 'http'] : ['tcp', 'http']
  e.protocol = secure ? 'https' : 'http'
  return handshake ? fillHandshake(e, handshake, e.host) : undefined
}

function tls(e: Event, handshake: Json, port: string | undefined): Unconvertible | undefined {
  e.port = port ?? '443'
  e.transport = ['tcp', 'tls']
  e.protocol = 'tls'
  const problem = fillHandshake(e, handshake, e.host)
  e.summary = tlsSummary(e)
  return problem
}

function ssh(e: Event, result: Json, port: string | undefined): void {
  e.port = port ?? '22'
  e.transport = ['tcp']
  e.protocol = 'ssh'
  const id = obj(result.server_id) ?? {}
  const raw = str(id.raw).trim()
  const parsed = sshIdentification(raw)
  const version = str(id.version) || parsed.version
  const software = str(id.software) || parsed.software
  const comment = str(id.comment) || parsed.comment
  e.ssh.banner = raw || `SSH-${version}-${software}${comment ? ` ${comment}` : ''}`
  e.ssh.version = sshMajor(version)
  const hex = str(at(result, 'key_exchange', 'server_host_key', 'fingerprint_sha256')) || str(at(result, 'server_host_key', 'fingerprint_sha256'))
  e.ssh.fingerprint = hex ? sshFingerprint(hex) : ''
  const sw = sshSoftware(software)
  e.service.software.name = sw.name
  e.service.software.version = sw.version
  e.service.software.os = osOf(comment)
  e.summary = e.ssh.banner
  attachProtocols(e, { ssh: sshExtension(result) })
}
