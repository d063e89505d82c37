/**
 * NSE script results → event fields. Each known script fills its part of the event; every
 * script's text output also goes into the summary (scriptBlock), so nothing is lost.
 */
import type { Event } from '../../schema/index.js'
import { ZERO_TIME } from '../../schema/empty.js'
import { HeaderBuilder } from '../common/headers.js'
import { dnsNamesOnly } from '../common/net.js'
import { attachProtocols, type Found } from '../common/protocols.js'
import { validityTime } from '../common/time.js'
import { elem, type NmapScript, type ScriptTable, table } from './model.js'
import { hostKey } from './hostkey.js'
import { PROTOCOL_SCRIPTS, READERS } from './protocols.js'
import { sha256 } from './sha256.js'

/** A script's output as nmap's normal output prints it: `| id: first`, `| …`, `|_last`. */
export function scriptBlock(script: NmapScript): string {
  // As nmap prints it: one trailing newline ends the last line rather than adding an empty one.
  const output = script.output.endsWith('\n') ? script.output.slice(0, -1) : script.output
  const last = output.lastIndexOf('\n')
  if (last === -1) return `|_${script.id}: ${output}`
  return `| ${script.id}: ${output.slice(0, last).replaceAll('\n', '\n| ')}\n|_${output.slice(last + 1)}`
}

/**
 * Applies every script this converter understands; unknown scripts only reach the summary.
 * Returns what could not be taken as nmap wrote it (a host key that contradicts nmap's own
 * fingerprint), for the caller to report, or undefined.
 */
export function applyScripts(event: Event, scripts: NmapScript[]): string[] | undefined {
  const headers = new HeaderBuilder()
  let found: Found | undefined
  let problems: string[] | undefined
  for (const script of scripts) {
    // Own members only: a script named like an Object.prototype member (`__proto__`) is unknown.
    if (Object.hasOwn(APPLY, script.id)) APPLY[script.id]!(event, script, headers)
    // The protocol objects (protocols.ts): gathered over all scripts, put on in canonical order.
    if (Object.hasOwn(READERS, script.id)) READERS[script.id]!(script, (found ??= {}), event.protocol)
    if (script.id === 'ssh-hostkey') {
      const key = hostKey(script)
      if (key === undefined) continue
      if (key.fingerprint !== '') event.ssh.fingerprint = key.fingerprint
      if (key.keyType !== undefined || key.key !== undefined) Object.assign(((found ??= {}).ssh ??= {}), { key_type: key.keyType, key: key.key })
      if (key.problem !== undefined) (problems ??= []).push(key.problem)
    }
  }
  if (headers.size > 0) event.http.header = headers.map
  if (found) attachProtocols(event, found)
  return problems
}

type Apply = (event: Event, script: NmapScript, headers: HeaderBuilder) => void

/** Port scripts whose `<elem>`/`<table>` tree an applier below reads (a new such applier goes here too). */
const TREE_SCRIPTS = new Set(['http-title', 'http-server-header', 'ssl-cert', 'ssh-hostkey', ...PROTOCOL_SCRIPTS])

/** Whether the reader should keep the values of a port script's `<elem>`s (see TREE_SCRIPTS). */
export const readsTree = (id: string): boolean => TREE_SCRIPTS.has(id)

const APPLY: Record<string, Apply> = {
  'http-title': (event, script) => {
    // Without a title nmap writes only prose output ("Site doesn't have a title"), no `title` elem.
    const title = elem(script.root, 'title')
    if (title !== '') event.http.title = title
  },
  'http-server-header': (_event, script, headers) => {
    for (const e of script.root.elems) if (e.value !== '') headers.add('server', e.value)
  },
  'http-headers': (_event, script, headers) => {
    for (const [name, value] of headerLines(script.output)) headers.add(name, value)
  },
  'ssl-cert': (event, script) => fillCertificate(event, script.root),
  banner: (event, script) => {
    if (/^SSH-\d/.test(script.output)) event.ssh.banner = script.output
  },
}

/** `http-headers` output: `  Name: value` lines up to the first blank line. */
function headerLines(output: string): [string, string][] {
  const headers: [string, string][] = []
  for (const raw of output.split('\n')) {
    const line = raw.trim()
    if (headers.length > 0 && line === '') break
    const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s?(.*)$/.exec(line)
    if (m) headers.push([m[1]!, m[2]!])
  }
  return headers
}

/** `ssl-cert`: subject, SANs, issuer, key, validity (zone-less = UTC), SHA-256 of the PEM's DER. */
function fillCertificate(event: Event, root: ScriptTable): void {
  const cert = event.ssl.certificate
  cert.cn = elem(table(root, 'subject'), 'commonName')
  cert.issuer_name = elem(table(root, 'issuer'), 'commonName')
  const pubkey = table(root, 'pubkey')
  cert.key_algo = keyAlgorithm(elem(pubkey, 'type'))
  cert.key_size = bits(elem(pubkey, 'bits'))
  const validity = table(root, 'validity')
  cert.not_before = certTime(elem(validity, 'notBefore'))
  cert.not_after = certTime(elem(validity, 'notAfter'))
  const names = dnsNames(root)
  cert.domain = dnsNamesOnly(names.length > 0 ? names : [cert.cn])
  cert.fingerprint = pemSha256(elem(root, 'pem'))
  cert.valid = event.host !== '' && cert.domain.some((name) => nameMatches(name, event.host))
  event.ssl.detected = true
}

/** DNS names of the Subject Alternative Name extension (`DNS:a, DNS:b, IP Address:…`). */
function dnsNames(root: ScriptTable): string[] {
  const extensions = table(root, 'extensions')
  const san = extensions?.tables.find((t) => elem(t, 'name') === 'X509v3 Subject Alternative Name')
  const names: string[] = []
  for (const part of elem(san, 'value').split(',')) {
    const m = /^\s*DNS:(.+?)\s*$/.exec(part)
    if (m && !names.includes(m[1]!)) names.push(m[1]!)
  }
  return names
}

const KEY_ALGORITHMS: Record<string, string> = { rsa: 'RSA', ec: 'ECDSA', dsa: 'DSA', ed25519: 'Ed25519', ed448: 'Ed448', dh: 'DH' }

const keyAlgorithm = (type: string) => KEY_ALGORITHMS[type.toLowerCase()] ?? type.toUpperCase()

function bits(text: string): number {
  const n = Number(text)
  return Number.isSafeInteger(n) && n > 0 ? n : 0
}

/** nmap writes validity as `2024-07-01T00:00:00` (older: a space), UTC without a zone. */
function certTime(text: string): string {
  const result = validityTime(text.trim())
  return result.ok ? result.value : ZERO_TIME
}

/** Base64 text and ASCII blanks only: Node's base64 decoder skips the blanks itself. */
const PLAIN_BASE64 = /^[A-Za-z0-9+/=\t\n\r ]*$/

const PEM_BEGIN = '-----BEGIN CERTIFICATE-----'
const PEM_END = '-----END CERTIFICATE-----'

/** SHA-256 (lower hex) of the DER inside a PEM certificate; empty when there is none. */
export function pemSha256(pem: string): string {
  // The first BEGIN line and the first END line after it (indexOf: a lazy regex is slower here).
  const begin = pem.indexOf(PEM_BEGIN)
  const end = begin === -1 ? -1 : pem.indexOf(PEM_END, begin + PEM_BEGIN.length)
  if (end === -1) return ''
  // Removing the line breaks first would copy the text (most of this function's time).
  const body = pem.slice(begin + PEM_BEGIN.length, end)
  const der = Buffer.from(PLAIN_BASE64.test(body) ? body : body.replace(/\s+/g, ''), 'base64')
  return der.length === 0 ? '' : sha256(der, 'hex')
}

/** Certificate name matching: exact (case-insensitive), or `*.` covering one left-most label. */
export function nameMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase()
  const h = host.toLowerCase().replace(/\.$/, '')
  if (p === h) return true
  if (!p.startsWith('*.')) return false
  const dot = h.indexOf('.')
  return dot > 0 && h.slice(dot + 1) === p.slice(2)
}
