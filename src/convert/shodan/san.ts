/**
 * The DNS names of a certificate's subject alternative name extension, read straight from its
 * DER bytes. Shodan gives every other certificate field as JSON; only the names need the
 * certificate itself (`ssl.chain[0]`, PEM), and a full X.509 parse costs ten times this scan.
 */

/** The extension's object identifier, 2.5.29.17, as DER: OBJECT IDENTIFIER, length 3, 55 1D 11. */
const SAN_OID = Buffer.from([0x06, 0x03, 0x55, 0x1d, 0x11])

/** A DER length at `at`: its value and where the content starts, or undefined. */
function length(der: Buffer, at: number): { value: number; start: number } | undefined {
  const first = der[at]
  if (first === undefined) return undefined
  if (first < 0x80) return { value: first, start: at + 1 }
  const count = first & 0x7f
  if (count === 0 || count > 3 || at + count >= der.length) return undefined
  let value = 0
  for (let i = 1; i <= count; i++) value = value * 256 + der[at + i]!
  return { value, start: at + 1 + count }
}

/**
 * The `dNSName` entries of the SAN extension of a PEM (or bare base64) certificate; undefined
 * when the text is not a certificate with that extension (the caller then keeps what it has).
 */
export function sanDnsNames(pem: string): string[] | undefined {
  // The base64 decoder skips whitespace itself: only the armour lines need removing.
  const der = Buffer.from(pem.replace(/-----(?:BEGIN|END) CERTIFICATE-----/g, ''), 'base64')
  let at = der.indexOf(SAN_OID)
  if (at === -1) return undefined
  at += SAN_OID.length
  if (der[at] === 0x01) at += 3 // critical: BOOLEAN, length 1, value
  if (der[at] !== 0x04) return undefined // extnValue: OCTET STRING
  const octets = length(der, at + 1)
  if (!octets || der[octets.start] !== 0x30) return undefined // GeneralNames: SEQUENCE
  const names = length(der, octets.start + 1)
  if (!names) return undefined
  const end = Math.min(names.start + names.value, der.length)
  const out: string[] = []
  for (let p = names.start; p < end; ) {
    const tag = der[p]!
    const item = length(der, p + 1)
    if (!item || item.start + item.value > end) return undefined
    if (tag === 0x82) out.push(der.toString('latin1', item.start, item.start + item.value)) // [2] dNSName, IA5String
    p = item.start + item.value
  }
  return out
}

/** The subject public key algorithms' object identifiers, as DER (tag, length, value). */
const KEY_OIDS: readonly [Buffer, string][] = [
  [Buffer.from([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]), 'ECDSA'], // 1.2.840.10045.2.1 id-ecPublicKey
  [Buffer.from([0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01]), 'DSA'], // 1.2.840.10040.4.1 id-dsa
  [Buffer.from([0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]), 'RSA'], // 1.2.840.113549.1.1.1 rsaEncryption
  [Buffer.from([0x06, 0x03, 0x2b, 0x65, 0x70]), 'Ed25519'], // 1.3.101.112
]

/**
 * The key algorithm of a PEM (or bare base64) certificate's subject public key, from the
 * algorithm identifier in its DER; undefined when none is found. The leaf holds its own key's
 * identifier only (the issuer's key is not in it; signature algorithms have other identifiers).
 */
export function spkiAlgorithm(pem: string): string | undefined {
  const der = Buffer.from(pem.replace(/-----(?:BEGIN|END) CERTIFICATE-----/g, ''), 'base64')
  let first: [number, string] | undefined
  for (const [oid, name] of KEY_OIDS) {
    const at = der.indexOf(oid)
    if (at !== -1 && (!first || at < first[0])) first = [at, name]
  }
  return first?.[1]
}
