/** masscan's `X509` banner (the server certificate, base64 DER) → `ssl.certificate`. */
import { createHash, X509Certificate } from 'node:crypto'
import type { Certificate } from '../../schema/index.js'
import { ZERO_TIME } from '../../schema/empty.js'
import { canonicalTime } from '../../time/index.js'
import { dnsNamesOnly } from '../common/net.js'

const KEY_ALGORITHMS: Record<string, string> = { rsa: 'RSA', 'rsa-pss': 'RSA', ec: 'ECDSA', dsa: 'DSA', ed25519: 'Ed25519', ed448: 'Ed448' }
const CURVE_BITS: Record<string, number> = { prime256v1: 256, secp256r1: 256, secp384r1: 384, secp521r1: 521, secp224r1: 224 }

/**
 * Fills the certificate from base64 DER. A banner cut short by masscan's buffer does not
 * parse: the certificate stays empty and the banner remains in the summary.
 */
export function fillCertificate(cert: Certificate, base64: string): void {
  const der = Buffer.from(base64.replace(/^cert:/, '').replace(/\s+/g, ''), 'base64')
  let x509: X509Certificate
  try {
    x509 = new X509Certificate(der)
  } catch {
    return
  }
  cert.fingerprint = createHash('sha256').update(der).digest('hex')
  cert.cn = attribute(x509.subject, 'CN')
  cert.issuer_name = attribute(x509.issuer, 'CN')
  const names = (x509.subjectAltName ?? '')
    .split(', ')
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4))
  cert.domain = dnsNamesOnly(names.length > 0 ? names : [cert.cn])
  cert.not_before = certTime(x509.validFrom)
  cert.not_after = certTime(x509.validTo)
  const key = x509.publicKey
  const type = key.asymmetricKeyType ?? ''
  cert.key_algo = KEY_ALGORITHMS[type] ?? type.toUpperCase()
  const details = key.asymmetricKeyDetails
  cert.key_size = details?.modulusLength ?? CURVE_BITS[details?.namedCurve ?? ''] ?? (type === 'ed25519' ? 256 : type === 'ed448' ? 456 : 0)
}

/** The first value of an attribute in Node's `CN=…\nO=…` rendering of a name. */
function attribute(name: string, key: string): string {
  for (const line of name.split('\n')) if (line.startsWith(`${key}=`)) return line.slice(key.length + 1)
  return ''
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** OpenSSL's `Nov 21 20:02:59 2026 GMT` → canonical UTC. */
function certTime(text: string): string {
  const m = /^(\w{3}) +(\d{1,2}) (\d{2}:\d{2}:\d{2}) (\d{4}) GMT$/.exec(text)
  const month = m ? MONTHS.indexOf(m[1]!) + 1 : 0
  if (!m || month === 0) return ZERO_TIME
  const result = canonicalTime(`${m[4]}-${String(month).padStart(2, '0')}-${m[2]!.padStart(2, '0')}T${m[3]}Z`)
  return result.ok ? result.value : ZERO_TIME
}
