/** nmap's service detection → `protocol`, `transport`, `service.software`, and the port line of the summary. */
import type { Event } from '../../schema/index.js'
import type { NmapService } from './model.js'

/** Names nmap uses that are not application protocols. */
const NOT_A_PROTOCOL = new Set(['', 'unknown', 'tcpwrapped'])

/** The TLS-wrapped name of a protocol, where one is in common use (nmap writes `ssl/http`). */
const OVER_TLS: Record<string, string> = {
  http: 'https',
  imap: 'imaps',
  pop3: 'pop3s',
  smtp: 'smtps',
  ldap: 'ldaps',
  ftp: 'ftps',
  irc: 'ircs',
  telnet: 'telnets',
}

const HTTP_NAMES = new Set(['http', 'https', 'http-proxy', 'http-alt', 'https-alt'])

/** The service name without the `?` nmap appends to a guess. */
const bareName = (service: NmapService) => (service.name.endsWith('?') ? service.name.slice(0, -1) : service.name)

/** True when nmap spoke TLS to the port (`tunnel="ssl"`, or version detection named it `ssl`/`https`). */
export function isTls(service: NmapService | undefined): boolean {
  if (!service) return false
  if (service.tunnel === 'ssl') return true
  return service.method !== 'table' && (service.name === 'ssl' || service.name === 'https')
}

/** `protocol` from the service name: `ssl/http` → `https`; `unknown` and `tcpwrapped` → empty. */
export function protocolOf(service: NmapService | undefined): string {
  if (!service) return ''
  const name = bareName(service)
  if (NOT_A_PROTOCOL.has(name)) return ''
  if (service.tunnel === 'ssl') return OVER_TLS[name] ?? name
  return name
}

/**
 * Transport layers: the port's protocol, `tls` when nmap spoke TLS, `http` when version
 * detection found HTTP. Port-table guesses (`method="table"`) add nothing: nothing was observed.
 */
export function transportOf(portProtocol: string, service: NmapService | undefined): string[] {
  const layers = [portProtocol]
  if (!service) return layers
  if (isTls(service)) layers.push('tls')
  if (service.method !== 'table' && HTTP_NAMES.has(bareName(service))) layers.push('http')
  return layers
}

/**
 * `service.software` from product, version and OS type. CPEs: the first application CPE
 * (`cpe:/a:…`, else the first CPE) is the software's `fingerprint`; every other CPE (the OS,
 * the hardware) becomes a module `{name: product part, version, fingerprint: the CPE}`.
 */
export function fillSoftware(event: Event, service: NmapService | undefined): void {
  if (!service) return
  const software = event.service.software
  software.name = service.product
  software.version = service.version
  software.os = service.ostype
  if (service.cpes.length === 0) return
  const main = service.cpes.find((cpe) => cpe.startsWith('cpe:/a:')) ?? service.cpes[0]!
  software.fingerprint = main
  const others = service.cpes.filter((cpe) => cpe !== main)
  if (others.length > 0) software.modules = others.map(cpeModule)
}

function cpeModule(cpe: string): { name: string; version: string; fingerprint: string } {
  // cpe:/part:vendor:product:version:…
  return { name: cpeField(cpe, 3), version: cpeField(cpe, 4), fingerprint: cpe }
}

/** `cpe.split(':')[n] ?? ''`, without the array of every field. */
function cpeField(cpe: string, n: number): string {
  let start = 0
  for (let i = 0; i < n; i++) {
    start = cpe.indexOf(':', start) + 1
    if (start === 0) return ''
  }
  const end = cpe.indexOf(':', start)
  return end === -1 ? cpe.slice(start) : cpe.slice(start, end)
}

/** nmap's VERSION column: `product version (extrainfo)`, or the greppable field as given. */
export function fullVersion(service: NmapService | undefined): string {
  if (!service) return ''
  if (service.fullversion !== '') return service.fullversion
  // The non-empty ones of product, version and `(extrainfo)`, joined with spaces.
  let text = service.product
  if (service.version !== '') text = text === '' ? service.version : `${text} ${service.version}`
  if (service.extrainfo !== '') text = text === '' ? `(${service.extrainfo})` : `${text} (${service.extrainfo})`
  return text
}

/** The port's line as nmap's normal output prints it: `443/tcp open ssl/http nginx 1.24.0`. */
export function portLine(portid: string, protocol: string, service: NmapService | undefined): string {
  let line = `${portid}/${protocol} open`
  if (service && service.name !== '') line += ` ${service.tunnel === 'ssl' ? 'ssl/' : ''}${service.name}`
  const version = fullVersion(service)
  if (version !== '') line += ` ${version}`
  return line
}
