/** A Shodan banner's `ssl` (negotiation and leaf certificate) and `ssh` (host key, identification). */
import { createHash } from 'node:crypto'
import type { Event } from '../../schema/index.js'
import { md5Fingerprint } from '../../normalize/vocabulary.js'
import { fillCertificate } from '../masscan/x509.js'
import { certificateCovers, dnsNamesOnly } from '../common/net.js'
import type { Unconvertible } from '../common/records.js'
import { osOf, sshSoftware } from '../common/software.js'
import { validityTime } from '../common/time.js'
import { sshIdentification, sshMajor, tlsVersion } from '../common/tls.js'
import { type Json, at, int, obj, str, strings } from '../common/values.js'
import { ianaCipher } from './ciphers.js'
import { sanDnsNames, spkiAlgorithm } from './san.js'

/** Versions from least to most recent, to pick the best one a server accepts. */
const RANK = ['SSLv2', 'SSLv3', 'TLSv1.0', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3']
const KEY_TYPES: Readonly<Record<string, string>> = { rsa: 'RSA', dsa: 'DSA', ec: 'ECDSA', ecdsa: 'ECDSA', ed25519: 'Ed25519' }

/** Fills `ssl` from Shodan's `ssl` member, or says why a certificate time is impossible. */
export function fillSsl(e: Event, ssl: Json): Unconvertible | undefined {
  e.ssl.detected = true
  e.ssl.enabled = true
  e.ssl.version = negotiatedVersion(ssl)
  e.ssl.cypher_suite = ianaCipher(str(at(ssl, 'cipher', 'name')))
  e.ssl.jarm = str(ssl.jarm)
  const cert = e.ssl.certificate
  // The leaf in PEM gives the subject alternative names, which the JSON members do not; when
  // the JSON members are missing, it gives everything.
  const pem = strings(ssl.chain)[0]
  const c = obj(ssl.cert)
  if (!c) {
    if (pem) fillCertificate(cert, pem.replace(/-----(?:BEGIN|END) CERTIFICATE-----/g, ''))
    cert.domain = dnsNamesOnly(cert.domain)
    cert.valid = certificateCovers(e.host, [cert.cn, ...cert.domain])
    return undefined
  }
  // A dNSName entry may hold an IP literal (`::1`): IP addresses never go to `domain`.
  if (pem) cert.domain = dnsNamesOnly(sanDnsNames(pem) ?? [])
  cert.cn = str(at(c, 'subject', 'CN')) || cert.cn
  cert.issuer_name = str(at(c, 'issuer', 'CN')) || cert.issuer_name
  if (cert.domain.length === 0 && cert.cn !== '') cert.domain = dnsNamesOnly([cert.cn])
  const sha256 = str(at(c, 'fingerprint', 'sha256')).toLowerCase()
  if (/^[0-9a-f]{64}$/.test(sha256)) cert.fingerprint = sha256
  cert.key_size = int(at(c, 'pubkey', 'bits')) ?? cert.key_size
  const type = str(at(c, 'pubkey', 'type')).toLowerCase()
  if (type !== '') cert.key_algo = keyAlgorithm(type, cert.key_size, pem)
  for (const [member, into] of [['issued', 'not_before'], ['expires', 'not_after']] as const) {
    if (c[member] === undefined) continue
    const time = validityTime(asn1Time(str(c[member])))
    if (!time.ok) return { reason: `ssl.cert.${member}: ${time.reason}` }
    cert[into] = time.value
  }
  cert.valid = certificateCovers(e.host, [cert.cn, ...cert.domain])
  return undefined
}

/**
 * The version the handshake negotiated. Shodan's `cipher.version` is the version that defines
 * the negotiated suite (OpenSSL's): `TLSv1.3` and `TLSv1.2` suites exist in that version
 * only, so it is the one negotiated; a TLS 1.3 suite name says so too. An older suite
 * (`TLSv1/SSLv3`, `SSLv3`) rules out TLS 1.3: the most recent of `versions[]` (what the
 * server accepts; `-TLSv1` one it refused) up to TLS 1.2. Without a cipher, the most recent
 * accepted version.
 */
function negotiatedVersion(ssl: Json): string {
  const cipher = str(at(ssl, 'cipher', 'name'))
  const named = tlsVersion(str(at(ssl, 'cipher', 'version')))
  if (named === 'TLSv1.3' || /^TLS_(?:AES|CHACHA20)_/.test(cipher)) return 'TLSv1.3'
  if (named === 'TLSv1.2') return 'TLSv1.2'
  const ceiling = cipher !== '' ? RANK.indexOf('TLSv1.2') : RANK.length - 1
  const accepted = strings(ssl.versions)
    .filter((v) => !v.startsWith('-'))
    .map(tlsVersion)
    .filter((v) => RANK.includes(v) && RANK.indexOf(v) <= ceiling)
  const best = accepted.reduce((b, v) => (RANK.indexOf(v) > RANK.indexOf(b) ? v : b), '')
  return best !== '' ? best : RANK.includes(named) ? named : ''
}

/**
 * `pubkey.type` as the format names key algorithms. Shodan says `dsa` for ECDSA keys too (a
 * P-256 key: `{"type": "dsa", "bits": 256}`): the leaf certificate's key algorithm decides
 * when the chain is there; else the size (EC keys are at most 571 bits, DSA keys at least
 * 1024 in practice).
 */
function keyAlgorithm(type: string, bits: number, pem: string | undefined): string {
  if (type === 'dsa') {
    const fromCertificate = pem ? spkiAlgorithm(pem) : undefined
    if (fromCertificate) return fromCertificate
    return bits > 0 && bits < 1024 ? 'ECDSA' : 'DSA'
  }
  return KEY_TYPES[type] ?? type.toUpperCase()
}

/** ASN.1 GeneralizedTime `20220330235959Z` (or UTCTime `220330235959Z`) → RFC 3339. */
function asn1Time(text: string): string {
  const m = /^(\d{2}|\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text.trim())
  if (!m) return text
  const year = m[1]!.length === 4 ? m[1]! : `${Number(m[1]) < 50 ? '20' : '19'}${m[1]}`
  return `${year}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`
}

/**
 * Fills `ssh`: the identification line (the first line of `data`), the protocol version, the
 * software, and the host key's fingerprint as OpenSSH prints it: `SHA256:<base64>` computed
 * from `key` (the public key, base64), else Shodan's MD5 `fingerprint` as `MD5:aa:bb:…`.
 */
export function fillSsh(e: Event, ssh: Json, data: string): void {
  const first = data.split(/\r?\n/, 1)[0]!.trim()
  const id = first.startsWith('SSH-') ? sshIdentification(first) : undefined
  e.ssh.banner = id ? first : ''
  e.ssh.version = id ? sshMajor(id.version) : 0
  const key = str(ssh.key).replace(/\s+/g, '')
  const md5 = str(ssh.fingerprint).trim()
  if (/^[A-Za-z0-9+/]+=*$/.test(key)) e.ssh.fingerprint = `SHA256:${createHash('sha256').update(Buffer.from(key, 'base64')).digest('base64').replace(/=+$/, '')}`
  else if (md5 !== '') e.ssh.fingerprint = md5Fingerprint(md5) ?? md5
  if (id) {
    const sw = sshSoftware(id.software)
    e.service.software.name = sw.name
    e.service.software.version = sw.version
    e.service.software.os = osOf(id.comment)
  }
}
