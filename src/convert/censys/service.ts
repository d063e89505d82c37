/** One Censys service: transport, protocol, banner, software, and its HTTP, TLS and SSH members. */
import type { Event } from '../../schema/index.js'
import { HeaderBuilder, snakeHeaderKey } from '../common/headers.js'
import { httpSummaryText } from '../common/http.js'
import { certificateCovers, dnsNamesOnly, parseUrl } from '../common/net.js'
import { osOf, sshSoftware } from '../common/software.js'
import { sshFingerprint, sshIdentification, sshMajor, tlsVersion } from '../common/tls.js'
import { type Json, at, int, obj, str, strings } from '../common/values.js'

const KEY_ALGORITHMS: Readonly<Record<string, string>> = { rsa: 'RSA', ecdsa: 'ECDSA', ec: 'ECDSA', dsa: 'DSA', ed25519: 'Ed25519' }

/** Fills the service's members into `e`; `hostOs` is the host's `operating_system.product`. */
export function fillService(e: Event, s: Json, hostOs: string): void {
  const transport = str(s.transport_protocol).toLowerCase()
  // QUIC runs over UDP.
  e.transport = [transport === 'udp' || transport === 'quic' ? 'udp' : 'tcp']
  const tls = obj(s.tls)
  const http = obj(s.http)
  const named = (str(s.extended_service_name) || str(s.service_name)).toLowerCase()
  // A search hit names the service without its details: HTTPS still says TLS and HTTP.
  const secure = tls !== undefined || named === 'https'
  if (secure) e.transport.push('tls')
  if (http || named === 'http' || named === 'https') e.transport.push('http')
  e.protocol = named === 'unknown' || named === '' ? (secure ? 'tls' : '') : named
  e.ssl.detected = secure
  e.ssl.enabled = secure
  e.summary = str(s.banner).trimEnd()
  if (http) fillHttp(e, http)
  if (tls) fillTls(e, tls, s)
  const ssh = obj(s.ssh)
  if (ssh) fillSsh(e, ssh)
  fillSoftware(e, s, hostOs)
}

/** `http.request.uri` → path and host; `http.response` → status, title, headers, summary. */
function fillHttp(e: Event, http: Json): void {
  const uri = parseUrl(str(at(http, 'request', 'uri')))
  if (uri) e.http.url = uri.path === '/' ? '' : uri.path
  const response = obj(http.response) ?? {}
  e.http.status = int(response.status_code) ?? 0
  e.http.title = str(response.html_title).replace(/\s+/g, ' ').trim()
  // Names are written with `_` for `-` (`Content_Type`); `_encoding` says how values were encoded.
  const headers = new HeaderBuilder()
  const map = obj(response.headers) ?? {}
  for (const name of Object.keys(map)) {
    if (name === '_encoding') continue
    // Every value, empty ones too (strings() would skip those).
    const values = map[name]
    const key = snakeHeaderKey(name)
    if (!Array.isArray(values)) {
      if (typeof values === 'string') headers.addKey(key, values)
    } else for (const v of values) if (typeof v === 'string') headers.addKey(key, v)
  }
  e.http.header = headers.map
  e.http.length = int(response.body_size) ?? int(headers.map['content-length']) ?? 0
  const protocol = str(response.protocol) || 'HTTP/1.1'
  const statusLine = `${protocol} ${e.http.status || ''} ${str(response.status_reason)}`.trim()
  e.summary = httpSummaryText(statusLine, headers.text(), e.http.title)
}

/** `tls{version_selected, cipher_selected, certificates.leaf_data}` and the service's JARM. */
function fillTls(e: Event, tls: Json, s: Json): void {
  e.ssl.version = tlsVersion(str(tls.version_selected))
  e.ssl.cypher_suite = str(tls.cipher_selected)
  e.ssl.jarm = str(at(s, 'jarm', 'fingerprint')) || str(at(tls, 'jarm', 'fingerprint'))
  const certificates = obj(tls.certificates) ?? {}
  const leaf = obj(certificates.leaf_data) ?? {}
  const cert = e.ssl.certificate
  cert.cn = strings(at(leaf, 'subject', 'common_name'))[0] ?? dnAttribute(str(leaf.subject_dn), 'CN')
  cert.issuer_name = strings(at(leaf, 'issuer', 'common_name'))[0] ?? dnAttribute(str(leaf.issuer_dn), 'CN')
  cert.domain = dnsNamesOnly(strings(leaf.names))
  const sha256 = (str(leaf.fingerprint) || str(certificates.leaf_fp_sha_256)).toLowerCase()
  cert.fingerprint = /^[0-9a-f]{64}$/.test(sha256) ? sha256 : ''
  const algorithm = str(leaf.pubkey_algorithm).toLowerCase()
  cert.key_algo = KEY_ALGORITHMS[algorithm] ?? algorithm.toUpperCase()
  cert.key_size = int(leaf.pubkey_bit_size) ?? 0
  cert.valid = certificateCovers(e.host, [cert.cn, ...cert.domain])
}

/** The first `key=value` of a distinguished name such as `C=US, O=Let's Encrypt, CN=R3`. */
function dnAttribute(dn: string, key: string): string {
  return new RegExp(`(?:^|,\\s*)${key}=([^,]+)`).exec(dn)?.[1]?.trim() ?? ''
}

/** `ssh{endpoint_id{raw, protocol_version, software_version, comment}, server_host_key{fingerprint_sha256}}`. */
function fillSsh(e: Event, ssh: Json): void {
  const id = obj(ssh.endpoint_id) ?? {}
  const raw = str(id.raw).trim() || (e.summary.startsWith('SSH-') ? e.summary.split(/\r?\n/, 1)[0]!.trim() : '')
  fillSshIdentity(e, raw, { version: str(id.protocol_version), software: str(id.software_version), comment: str(id.comment) }, str(at(ssh, 'server_host_key', 'fingerprint_sha256')))
  if (e.summary === '') e.summary = raw
}

/**
 * The SSH members and the software of a server whose identification string is `raw`, with the
 * parts Censys gives separately (each read from `raw` when empty) and the host key's SHA-256 in
 * hex; shared by the current and the legacy (v1) service shapes.
 */
export function fillSshIdentity(e: Event, raw: string, given: { version: string; software: string; comment: string }, hostKeyHex: string): void {
  const parsed = sshIdentification(raw)
  const software = given.software || parsed.software
  e.ssh.banner = raw
  e.ssh.version = sshMajor(given.version || parsed.version)
  e.ssh.fingerprint = hostKeyHex ? sshFingerprint(hostKeyHex) : ''
  if (software !== '') {
    const sw = sshSoftware(software)
    e.service.software.name = sw.name
    e.service.software.version = sw.version
    e.service.software.os = osOf(given.comment || parsed.comment)
  }
}

/**
 * `software[]{vendor, product, version, uniform_resource_identifier, part}`: the first
 * application (`part` `a`, else the first entry) is the software, its CPE the fingerprint;
 * the others are modules. The OS is an `o` entry's product, else the host's.
 */
function fillSoftware(e: Event, s: Json, hostOs: string): void {
  const list = (Array.isArray(s.software) ? s.software : []).map(obj).filter((x): x is Json => x !== undefined)
  const software = e.service.software
  const os = list.find((x) => str(x.part) === 'o')
  if (os) software.os = str(os.product)
  else if (hostOs !== '' && software.os === '') software.os = hostOs
  const apps = list.filter((x) => x !== os)
  if (apps.length === 0) return
  const main = apps.find((x) => str(x.part) === 'a') ?? apps[0]!
  software.name = str(main.product)
  software.version = str(main.version)
  software.fingerprint = str(main.uniform_resource_identifier)
  const others = apps.filter((x) => x !== main)
  if (others.length > 0) software.modules = others.map((x) => ({ name: str(x.product), version: str(x.version), fingerprint: str(x.uniform_resource_identifier) }))
}
