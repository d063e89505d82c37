/** A ZGrab2 TLS handshake log (the tls module's result, or an HTTPS request's tls_log) → `ssl`. */
import { createHash } from 'node:crypto'
import type { Event } from '../../schema/index.js'
import { certificateCovers, dnsNamesOnly } from '../common/net.js'
import type { Unconvertible } from '../common/records.js'
import { validityTime } from '../common/time.js'
import { tlsVersion } from '../common/tls.js'
import { type Json, at, int, obj, str, strings } from '../common/values.js'

/** Fills `e.ssl` from a handshake log; `hostName` decides `valid` when ZGrab2 did not. */
export function fillHandshake(e: Event, handshake: Json, hostName: string): Unconvertible | undefined {
  e.ssl.detected = true
  e.ssl.enabled = true
  const hello = obj(handshake.server_hello) ?? {}
  // TLS 1.3 negotiates in supported_versions; `version` then still says TLSv1.2 (the legacy field).
  e.ssl.version = tlsVersion(str(at(hello, 'supported_versions', 'selected_version', 'name')) || str(at(hello, 'version', 'name')))
  e.ssl.cypher_suite = str(at(hello, 'cipher_suite', 'name'))
  const chain = obj(handshake.server_certificates) ?? {}
  const certificate = obj(chain.certificate)
  const parsed = obj(certificate?.parsed)
  if (!parsed) return undefined
  const cert = e.ssl.certificate
  cert.cn = strings(at(parsed, 'subject', 'common_name'))[0] ?? ''
  cert.domain = dnsNamesOnly(strings(at(parsed, 'extensions', 'subject_alt_name', 'dns_names')))
  cert.issuer_name = strings(at(parsed, 'issuer', 'common_name'))[0] ?? ''
  const start = validityTime(at(parsed, 'validity', 'start'))
  const end = validityTime(at(parsed, 'validity', 'end'))
  if (!start.ok) return start
  if (!end.ok) return end
  cert.not_before = start.value
  cert.not_after = end.value
  const keyInfo = obj(parsed.subject_key_info) ?? {}
  cert.key_algo = str(at(keyInfo, 'key_algorithm', 'name'))
  cert.key_size =
    int(at(keyInfo, 'rsa_public_key', 'length')) ??
    int(at(keyInfo, 'ecdsa_public_key', 'length')) ??
    int(/\d+/.exec(str(at(keyInfo, 'ecdsa_public_key', 'curve')))?.[0]) ??
    0
  cert.fingerprint = sha256Of(parsed, certificate)
  const matches = at(chain, 'validation', 'matches_domain')
  cert.valid = typeof matches === 'boolean' ? matches : certificateCovers(hostName, [cert.cn, ...cert.domain])
  return undefined
}

/** `fingerprint_sha256`, else the SHA-256 of the base64 DER in `raw`. */
function sha256Of(parsed: Json, certificate: Json | undefined): string {
  const given = str(parsed.fingerprint_sha256).toLowerCase()
  if (/^[0-9a-f]{64}$/.test(given)) return given
  const raw = str(certificate?.raw)
  if (raw === '') return ''
  return createHash('sha256').update(Buffer.from(raw, 'base64')).digest('hex')
}

/** `TLSv1.3 TLS_AES_128_GCM_SHA256`, then subject, issuer, names and expiry lines. */
export function tlsSummary(e: Event): string {
  const c = e.ssl.certificate
  const lines = [`${e.ssl.version} ${e.ssl.cypher_suite}`.trim()]
  if (c.cn) lines.push(`subject: ${c.cn}`)
  if (c.issuer_name) lines.push(`issuer: ${c.issuer_name}`)
  if (c.domain.length) lines.push(`names: ${c.domain.join(', ')}`)
  if (c.fingerprint) lines.push(`sha256: ${c.fingerprint}`)
  return lines.join('\n')
}
