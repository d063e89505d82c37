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
