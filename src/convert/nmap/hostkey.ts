/**
 * `ssh-hostkey`: the host key nmap reports, in any of the shapes nmap has written it.
 *
 * - nmap 7 (structured output): one `<table>` per key with `type`, `bits`, `fingerprint` (the
 *   MD5 of the key blob, hex) and `key` (the blob, base64).
 * - nmap 6.x: the same tables, but `key` is base64 **twice** (the script encoded the base64 text
 *   again). The blob is found by decoding until the bytes are an SSH key blob whose type string
 *   is the key's type, and nmap's own MD5 says which decoding is the key.
 * - Text only (older nmap, or XML without tables): lines `2048 f0:58:…:11 (RSA)`, and with
 *   verbosity (or `ssh_hostkey=full`) the key itself, `ssh-rsa AAAA…`, after its line.
 *
 * The first SSH-2 key is the event's: `ssh.fingerprint` `SHA256:<base64>` of its blob (as
 * OpenSSH prints it), else nmap's MD5 as `MD5:aa:bb:…`; `ssh.key` the blob in base64 (as in
 * `known_hosts`) and `ssh.key_type` its wire name. A key whose blob does not hash to the MD5 nmap
 * printed for it is not written: the fingerprint is then nmap's MD5, and the disagreement is
 * reported (never written silently).
 */
import { md5Fingerprint, sshKeyType } from '../../normalize/vocabulary.js'
import { elem, type NmapScript, type ScriptTable } from './model.js'
import { md5, sha256 } from './sha256.js'

/** What the script says of the event's host key. */
export interface HostKey {
  fingerprint: string
  keyType?: string
  /** The blob, base64 once. */
  key?: string
  /** Why the key was not written, when it was not. */
  problem?: string
}

/** One key as nmap wrote it: any of its members may be missing. */
interface Written {
  type: string
  bits: number | undefined
  /** nmap's MD5 of the blob, 32 lower-case hex digits. */
  md5: string | undefined
  /** The `key` elem or the text's key: base64 of the blob, or (nmap 6.x) of its base64. */
  key: string
}

/** Key types of the SSH-1 protocol, which have no key blob (the oldest nmap lists them first). */
const SSH1 = /^(?:ssh1|rsa1)$/i

/** Base64 text only (what a key blob's base64 is, so what nmap 6.x's first decoding gives). */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The type string an SSH key blob starts with (a uint32 length, then that many ASCII bytes), or undefined. */
function blobType(blob: Buffer): string | undefined {
  if (blob.length < 8) return undefined
  const length = blob.readUInt32BE(0)
  if (length < 3 || length > 64 || 4 + length > blob.length) return undefined
  const type = blob.toString('latin1', 4, 4 + length)
  return /^[a-z0-9@.-]+$/.test(type) ? type : undefined
}

/** Whether `blob` is an SSH key blob of type `type` (any type when undefined). */
function isBlobOf(blob: Buffer, type: string | undefined): boolean {
  if (type === undefined) return blobType(blob) !== undefined
  if (blob.length < 4 + type.length || blob.readUInt32BE(0) !== type.length) return false
  for (let i = 0; i < type.length; i++) if (blob[4 + i] !== type.charCodeAt(i)) return false
  return true
}

/**
 * The key blob of a `key` text: decoded once (nmap 7, the text form) or, while the bytes are
 * base64 text themselves, again (nmap 6.x); the first decoding that is a blob of the key's type
 * and hashes to nmap's MD5 (when nmap gave one). Otherwise why not.
 */
function decodeKey(written: Written): { blob: Buffer } | { problem: string } {
  const type = written.type === '' ? undefined : sshKeyType(written.type, written.bits)
  let text = /\s/.test(written.key) ? written.key.replace(/\s+/g, '') : written.key
  let sawBlob: Buffer | undefined
  for (let depth = 0; depth < 3; depth++) {
    const bytes = Buffer.from(text, 'base64')
    if (isBlobOf(bytes, type)) {
      if (written.md5 === undefined || md5(bytes) === written.md5) return { blob: bytes }
      sawBlob ??= bytes
    }
    // nmap 6.x encoded the base64 text again: these bytes are that text.
    text = bytes.toString('latin1').replace(/\s+/g, '')
    if (!BASE64.test(text)) break
  }
  const shown = written.md5 === undefined ? '' : ` ${md5Fingerprint(written.md5)!.slice(4)}`
  if (sawBlob) return { problem: `ssh-hostkey: the ${written.type || 'host'} key does not hash to the MD5 fingerprint nmap printed for it (${shown.trim()}; the key's is ${md5Fingerprint(md5(sawBlob))!.slice(4)}); its key is left out and nmap's fingerprint written` }
  return { problem: `ssh-hostkey: the ${written.type || 'host'} key is not an SSH key blob${written.md5 === undefined ? '' : ` matching nmap's MD5${shown}`} in base64 (once or twice); its key is left out` }
}

/** A key of the structured output. */
function tableKey(t: ScriptTable): Written {
  const hex = elem(t, 'fingerprint').replace(/:/g, '').toLowerCase()
  const bits = Number(elem(t, 'bits'))
  return { type: elem(t, 'type').trim(), bits: Number.isSafeInteger(bits) && bits > 0 ? bits : undefined, md5: /^[0-9a-f]{32}$/.test(hex) ? hex : undefined, key: elem(t, 'key').trim() }
}

/** The key of the structured output the event takes: the first SSH-2 one with a key or an MD5, else the first such. */
function tableKeyOf(root: ScriptTable): Written | undefined {
  let first: Written | undefined
  for (const t of root.tables) {
    if (elem(t, 'key') === '' && elem(t, 'fingerprint') === '') continue
    const key = tableKey(t)
    if (key.key === '' && key.md5 === undefined) continue
    if (!SSH1.test(key.type)) return key
    first ??= key
  }
  return first
}

/** `2048 f0:58:…:11 (RSA)`: bits, MD5 and nmap's algorithm name. */
const FINGERPRINT_LINE = /^\s*(\d+)\s+((?:[0-9a-fA-F]{2}:){15}[0-9a-fA-F]{2})\s+\(([^)]+)\)\s*$/
/** `ssh-rsa AAAA…` (the whole key, printed with verbosity). */
const KEY_LINE = /^\s*((?:ssh|ecdsa|sk)-[A-Za-z0-9@.-]+)\s+(AAAA[A-Za-z0-9+/]+={0,2})(?:\s.*)?$/

/** The keys of the text output, in order: a key line belongs to the fingerprint line before it. */
function textKeys(output: string): Written[] {
  const keys: Written[] = []
  let open: Written | undefined
  for (const line of output.split('\n')) {
    const fp = FINGERPRINT_LINE.exec(line)
    if (fp) {
      open = { type: sshKeyType(fp[3]!, Number(fp[1])), bits: Number(fp[1]), md5: fp[2]!.replace(/:/g, '').toLowerCase(), key: '' }
      keys.push(open)
      continue
    }
    const k = KEY_LINE.exec(line)
    if (!k) continue
    if (open && open.key === '') {
      open.key = k[2]!
      open.type = k[1]!
    } else keys.push({ type: k[1]!, bits: undefined, md5: undefined, key: k[2]! })
    open = undefined
  }
  return keys
}

/** The event's host key from an `ssh-hostkey` result, or undefined when it names none. */
export function hostKey(script: NmapScript): HostKey | undefined {
  let key: Written | undefined
  if (script.root.tables.length > 0) key = tableKeyOf(script.root)
  else {
    const keys = textKeys(script.output).filter((k) => k.key !== '' || k.md5 !== undefined)
    key = keys.find((k) => !SSH1.test(k.type)) ?? keys[0]
  }
  if (!key) return undefined
  const keyType = key.type === '' ? undefined : SSH1.test(key.type) ? key.type : sshKeyType(key.type, key.bits)
  const fromMd5 = key.md5 === undefined ? undefined : md5Fingerprint(key.md5)
  if (key.key === '' || SSH1.test(key.type)) return fromMd5 === undefined ? undefined : { fingerprint: fromMd5, keyType }
  const decoded = decodeKey(key)
  if ('problem' in decoded) return { fingerprint: fromMd5 ?? '', keyType, problem: decoded.problem }
  // 32 bytes are 44 base64 characters, the last one a single `=` of padding.
  return { fingerprint: `SHA256:${sha256(decoded.blob, 'base64').slice(0, -1)}`, keyType: keyType ?? blobType(decoded.blob), key: decoded.blob.toString('base64') }
}
