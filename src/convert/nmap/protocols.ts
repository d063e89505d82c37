/**
 * NSE scripts → the protocol objects and the `ssh` extension (src/schema/protocols.ts). Each
 * reader takes what its script wrote and nothing more: a member the output does not hold stays
 * absent. Scripts with structured output are read from their `<elem>`/`<table>` tree; those
 * that nmap prints as text only (older releases of some, `ldap-rootdse`, `mongodb-*`, the
 * tab-aligned `redis-info`) from their `output` text, whose layout nmap fixes.
 * docs/convert-nmap-masscan.md, "Protocol objects", lists what comes from where.
 */
import { mysqlStatus, rfbVersion, vncSecurityType, vncSecurityTypeText } from '../../normalize/vocabulary.js'
import { count, type Found, given, names } from '../common/protocols.js'
import { elem, type NmapScript, type ScriptTable, table } from './model.js'

type Read = (script: NmapScript, found: Found, protocol: string) => void

/** The value of a top-level `<elem key>`; else of a `key: value` (or tab-aligned `key   value`) line of the text. */
function labelled(script: NmapScript, key: string): string | undefined {
  const value = given(elem(script.root, key))
  if (value !== undefined) return value
  for (const line of script.output.split('\n')) {
    const t = line.trim()
    if (!t.startsWith(key)) continue
    const rest = t.slice(key.length)
    const m = /^(?::\s*|\s{2,})(.*)$/.exec(rest)
    if (m) return given(m[1])
  }
  return undefined
}

/** The values of a table's key-less `<elem>`s, in order. */
const listed = (t: ScriptTable | undefined): string[] | undefined => names(t?.elems.filter((e) => e.key === '').map((e) => e.value) ?? [])

/** A one-line list such as `INVITE, ACK, CANCEL` (the first non-empty line of the text). */
function commaList(output: string): string[] | undefined {
  const line = output.split('\n').find((l) => l.trim() !== '')
  return line === undefined ? undefined : names(line.split(','))
}

/** Lines `name: value` of a text output, names as written, values trimmed. */
function attributes(output: string): [string, string][] {
  const out: [string, string][] = []
  for (const line of output.split('\n')) {
    const m = /^\s*([A-Za-z][A-Za-z0-9_.-]*): (.*)$/.exec(line)
    if (m && m[2]!.trim() !== '') out.push([m[1]!, m[2]!.trim()])
  }
  return out
}

/** A server's refusal to answer without credentials, as the MongoDB and Redis scripts print it. */
const DENIED = /requires authentication|not authorized|unauthorized|authentication required/i

/** `name = value` lines of the nested text nmap prints for a BSON document (mongodb-*). */
function bsonValues(output: string, name: string): string[] {
  const out: string[] = []
  for (const line of output.split('\n')) {
    const m = /^\s*([^=]+?) = (.*)$/.exec(line)
    if (m && m[1] === name && m[2]!.trim() !== '') out.push(m[2]!.trim())
  }
  return out
}

const SSH_ALGORITHMS = [
  ['kex_algorithms', 'kex_algorithms'],
  ['server_host_key_algorithms', 'host_key_algorithms'],
  ['encryption_algorithms', 'encryption_algorithms'],
  ['mac_algorithms', 'mac_algorithms'],
  ['compression_algorithms', 'compression_algorithms'],
] as const

export const READERS: Readonly<Record<string, Read>> = {
  'ssh2-enum-algos': (script, found) => {
    for (const [key, member] of SSH_ALGORITHMS) {
      const list = listed(table(script.root, key))
      if (list) (found.ssh ??= {})[member] = list
    }
  },
  'ssh-auth-methods': (script, found) => {
    const list = listed(table(script.root, 'Supported authentication methods'))
    if (list) (found.ssh ??= {}).auth_methods = list
  },
  'redis-info': (script, found) => {
    const redis = (found.redis ??= {})
    if (DENIED.test(script.output)) {
      redis.auth_required = true
      return
    }
    const version = labelled(script, 'Version')
    const os = labelled(script, 'Operating System')
    if (version) redis.version = version
    if (os) redis.os = os
  },
  'mongodb-info': (script, found) => {
    const version = bsonValues(script.output, 'version')[0]
    if (version) (found.mongodb ??= {}).version = version
    mongodbCommon(script, found)
  },
  'mongodb-databases': (script, found) => {
    mongodbCommon(script, found)
    if (DENIED.test(script.output)) return
    const databases = names(bsonValues(script.output, 'name'))
    if (databases) (found.mongodb ??= {}).databases = databases
  },
  'mysql-info': (script, found) => {
    const version = labelled(script, 'Version')
    const protocol = count(labelled(script, 'Protocol'))
    const plugin = labelled(script, 'Auth Plugin Name')
    const status = labelled(script, 'Status')
    if (version) (found.mysql ??= {}).version = version
    if (protocol !== undefined) (found.mysql ??= {}).protocol_version = protocol
    if (plugin) (found.mysql ??= {}).auth_plugin = plugin
    // nmap names the flags its own way (`Autocommit`): the protocol's names (vocabulary.ts).
    const flags = status === undefined ? undefined : given(mysqlStatus(status))
    if (flags) (found.mysql ??= {}).server_status = flags
  },
  'ftp-anon': (script, found) => {
    // The script writes output only when the anonymous login succeeded.
    if (/^\s*Anonymous FTP login allowed/.test(script.output)) (found.ftp ??= {}).anonymous = true
  },
  'smtp-commands': (script, found) => {
    // The EHLO answer on one line: the greeting (the server's name), then one item per extension.
    const items = commaList(script.output)
    if (items === undefined || items.length < 2) return
    const extensions = items.slice(1)
    const smtp = (found.smtp ??= {})
    smtp.extensions = extensions
    smtp.starttls = extensions.some((x) => x.toUpperCase() === 'STARTTLS')
  },
  'rdp-ntlm-info': (script, found) => {
    const version = given(elem(script.root, 'Product_Version'))
    const hostname = given(elem(script.root, 'DNS_Computer_Name')) ?? given(elem(script.root, 'NetBIOS_Computer_Name'))
    if (version) (found.rdp ??= {}).product_version = version
    if (hostname) (found.rdp ??= {}).hostname = hostname
  },
  'ldap-rootdse': (script, found) => {
    const values = (name: string) => names(attributes(script.output).filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v))
    const ldap = (found.ldap ??= {})
    const contexts = values('namingContexts')
    const versions = values('supportedLDAPVersion')
    const vendor = values('vendorName')?.[0]
    const vendorVersion = values('vendorVersion')?.[0]
    const sasl = values('supportedSASLMechanisms')
    if (contexts) ldap.naming_contexts = contexts
    if (versions) ldap.supported_versions = versions
    if (vendor) ldap.vendor_name = vendor
    if (vendorVersion) ldap.vendor_version = vendorVersion
    if (sasl) ldap.supported_sasl = sasl
  },
  'sip-methods': (script, found) => {
    const allow = listed(script.root) ?? commaList(script.output)
    if (allow) (found.sip ??= {}).allow = allow
  },
  'rtsp-methods': (script, found) => {
    const methods = listed(script.root) ?? commaList(script.output)
    if (methods) (found.rtsp ??= {}).methods = methods
  },
  'dns-recursion': (script, found) => {
    // Written only when the server answered a recursive query.
    if (/Recursion appears to be enabled/i.test(script.output)) (found.dns ??= {}).recursion = true
  },
  'dns-nsid': (script, found) => {
    const version = labelled(script, 'bind.version')
    if (version) (found.dns ??= {}).version = version
  },
  'amqp-info': (script, found) => {
    const product = labelled(script, 'product')
    const version = labelled(script, 'version')
    const platform = labelled(script, 'platform')
    if (product) (found.amqp ??= {}).product = product
    if (version) (found.amqp ??= {}).version = version
    if (platform) (found.amqp ??= {}).platform = platform
  },
  'vnc-info': (script, found) => {
    const version = labelled(script, 'Protocol version')
    const types = table(script.root, 'Security types')
    const security = types ? treeSecurityTypes(types) : textSecurityTypes(script.output)
    const vnc = (found.vnc ??= {})
    if (version) vnc.version = rfbVersion(version)
    if (security) vnc.security_types = security
    // The script checks every security type it can for one without authentication, and warns then.
    const warned = /Server does not require authentication/.test(script.output) || /does not require authentication/.test(elem(script.root, 'WARNING'))
    if (warned) vnc.noauth = true
    else if (security) vnc.noauth = false
  },
  'telnet-encryption': (script, found) => {
    // Option 38 (ENCRYPT, RFC 2946), the one the script negotiates.
    if (/supports encryption/i.test(script.output) && !/does not support/i.test(script.output)) (found.telnet ??= {}).options = ['ENCRYPT']
  },
  banner: (script, found, protocol) => {
    const text = given(script.output)
    if (text === undefined) return
    if (protocol === 'ftp') (found.ftp ??= {}).banner = text
    else if (protocol === 'smtp') (found.smtp ??= {}).banner = text
    else if (protocol === 'telnet') (found.telnet ??= {}).banner = text
  },
}

/** The MongoDB scripts both print: the isMaster answer's `maxWireVersion` when shown, a refusal. */
function mongodbCommon(script: NmapScript, found: Found): void {
  const wire = count(bsonValues(script.output, 'maxWireVersion')[0])
  if (wire !== undefined) (found.mongodb ??= {}).wire_version = wire
  if (DENIED.test(script.output)) (found.mongodb ??= {}).auth_required = true
}

/** `vnc-info` tables `{name, type}`: each type as `<name> (<number>)` (vocabulary.ts), so two of one name stay apart. */
function treeSecurityTypes(types: ScriptTable): string[] | undefined {
  const out = types.tables.map((t) => {
    const number = count(elem(t, 'type'))
    const name = elem(t, 'name').trim()
    return number === undefined ? vncSecurityTypeText(name) : vncSecurityType(number, name)
  })
  // Older releases list the names as key-less elems.
  return names(out.length > 0 ? out : (types.elems.filter((e) => e.key === '').map((e) => vncSecurityTypeText(e.value))))
}

/** Older `vnc-info` text: the lines under `Security types:`, `Name (N)` as the vocabulary spells them. */
function textSecurityTypes(output: string): string[] | undefined {
  const lines = output.split('\n')
  const at = lines.findIndex((l) => l.trim() === 'Security types:')
  if (at === -1) return undefined
  const indent = lines[at]!.length - lines[at]!.trimStart().length
  const out: string[] = []
  for (const line of lines.slice(at + 1)) {
    if (line.length - line.trimStart().length <= indent || line.trim() === '') break
    out.push(vncSecurityTypeText(line.trim()))
  }
  return names(out)
}

/** Script ids a reader above takes values from (their `<elem>`s must be kept by the XML reader). */
export const PROTOCOL_SCRIPTS: readonly string[] = Object.keys(READERS)
