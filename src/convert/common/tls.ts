/** TLS and SSH values in the spelling the event document uses. */

const VERSION = /^(?:(ssl|tls)\s*v?\s*)(\d)(?:[._]?(\d))?$/i

/** `tls12`, `TLSv1_2`, `tls1.2`, `TLS 1.2` → `TLSv1.2`; `ssl30`/`SSLv3` → `SSLv3`. Unknown spellings are kept. */
export function tlsVersion(text: string): string {
  const t = text.trim()
  const m = VERSION.exec(t)
  if (!m) return t
  const [, family = '', major = '', minor] = m
  if (family.toLowerCase() === 'ssl') return `SSLv${major}`
  return `TLSv${major}.${minor ?? '0'}`
}

/** A SHA-256 host key fingerprint as `SHA256:<base64 without padding>` (OpenSSH's form); hex input is converted. */
export function sshFingerprint(value: string): string {
  const v = value.trim()
  const hex = v.replace(/:/g, '')
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return `SHA256:${Buffer.from(hex, 'hex').toString('base64').replace(/=+$/, '')}`
  return v
}

/** SSH protocol major version from `2.0`, `1.99` (a server speaking both: 2) or `1.5`. */
export function sshMajor(version: string): number {
  const v = version.trim()
  if (v === '1.99') return 2
  const n = Number.parseInt(v, 10)
  return Number.isSafeInteger(n) && n >= 0 ? n : 0
}

/** `SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13` → its version, software and comment parts. */
export function sshIdentification(raw: string): { version: string; software: string; comment: string } {
  const m = /^SSH-([^-\s]+)-(\S*)(?:\s+(.*))?$/.exec(raw.trim())
  if (!m) return { version: '', software: '', comment: '' }
  return { version: m[1] ?? '', software: m[2] ?? '', comment: (m[3] ?? '').trim() }
}
