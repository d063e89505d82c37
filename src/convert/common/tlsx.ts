/**
 * tlsx's TLS members into an event's `ssl`: the shape tlsx writes on its own lines and httpx
 * nests under `tls` (`-tls-grab`). tlsx gives no key algorithm or size.
 */
import type { Event } from '../../schema/index.js'
import { certificateCovers, dnsNamesOnly } from './net.js'
import { validityTime } from './time.js'
import { tlsVersion } from './tls.js'
import { type Json, at, str, strings } from './values.js'

/** Fills `e.ssl` from tlsx's members (`tls` may be absent: TLS seen, nothing more known). */
export function fillTlsx(e: Event, tls: Json | undefined, hostName: string): { reason: string } | undefined {
  e.ssl.detected = true
  e.ssl.enabled = true
  if (!tls) return undefined
  e.ssl.version = tlsVersion(str(tls.tls_version))
  e.ssl.cypher_suite = str(tls.cipher)
  const cert = e.ssl.certificate
  cert.cn = str(tls.subject_cn)
  cert.domain = dnsNamesOnly(strings(tls.subject_an))
  cert.issuer_name = str(tls.issuer_cn) || /(?:^|,\s*)CN=([^,]+)/.exec(str(tls.issuer_dn))?.[1] || ''
  const sha256 = str(at(tls, 'fingerprint_hash', 'sha256')).toLowerCase()
  cert.fingerprint = /^[0-9a-f]{64}$/.test(sha256) ? sha256 : ''
  const notBefore = validityTime(tls.not_before)
  const notAfter = validityTime(tls.not_after)
  if (!notBefore.ok) return notBefore
  if (!notAfter.ok) return notAfter
  cert.not_before = notBefore.value
  cert.not_after = notAfter.value
  // `valid` is the host-name match only (facts.md); tlsx says so itself when run with it.
  cert.valid = typeof tls.mismatched === 'boolean' ? !tls.mismatched : certificateCovers(hostName, [cert.cn, ...cert.domain])
  return undefined
}
