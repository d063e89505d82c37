/**
 * A Shodan banner's protocol members → the protocol objects and the `ssh` extension
 * (src/schema/protocols.ts). Most come from the member Shodan's module writes (`ssh.kex`,
 * `redis.server`, `mongodb`, `ftp`, `vnc`, `mysql`, `amqp`, `ldap`, `dns`, `telnet`, `ntlm` and
 * `rdp_encryption` of an RDP banner); for modules that write no member (`smtp`, `rtsp`,
 * `memcache`) from the banner text `data`, whose layout the protocol fixes. A member the banner
 * does not hold stays absent.
 */
import { mysqlStatus, rfbVersion, sshKeyType, telnetOptions, vncSecurityType } from '../../normalize/vocabulary.js'
import type { Found, SshExtension } from '../common/protocols.js'
import { count, given, names } from '../common/protocols.js'
import { type Json, at, obj, str, strings } from '../common/values.js'

/** A value Shodan writes as a string or a list of strings (LDAP attributes), as a list. */
const list = (value: unknown): string[] | undefined => names(strings(value))

/** The first of several spellings Shodan uses for one LDAP attribute. */
function attribute(ldap: Json, ...spellings: string[]): unknown {
  for (const name of spellings) if (ldap[name] !== undefined && ldap[name] !== null) return ldap[name]
  return undefined
}

/** The lines of `data`, without line ends. */
const lines = (data: string): string[] => data.split(/\r?\n/)

/** `STAT name value` lines of a memcached `stats` answer. */
function stats(data: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of lines(data)) {
    const m = /^STAT (\S+) (.*)$/.exec(line.trim())
    if (m && !out.has(m[1]!)) out.set(m[1]!, m[2]!.trim())
  }
  return out
}

/** A header of a text answer (`Server: x`), by name in any case; the first one. */
function header(data: string, name: string): string | undefined {
  const wanted = name.toLowerCase()
  for (const line of lines(data)) {
    const at = line.indexOf(':')
    if (at > 0 && line.slice(0, at).trim().toLowerCase() === wanted) return given(line.slice(at + 1))
  }
  return undefined
}

function sshExtension(ssh: Json): SshExtension {
  const kex = obj(ssh.kex) ?? {}
  return {
    key_type: given(sshKeyType(str(ssh.type))),
    key: given(str(ssh.key).replace(/\s+/g, '')),
    kex_algorithms: names(strings(kex.kex_algorithms)),
    host_key_algorithms: names(strings(kex.server_host_key_algorithms)),
    encryption_algorithms: names(strings(kex.encryption_algorithms)),
    mac_algorithms: names(strings(kex.mac_algorithms)),
    compression_algorithms: names(strings(kex.compression_algorithms)),
  }
}

/** VNC security types, `{"1": "None", "2": "VNC Authentication"}`, in the numbers' order, as `None (1)` (vocabulary.ts). */
function securityTypes(types: Json): { names: string[] | undefined; noauth: boolean } {
  const entries = Object.entries(types).sort(([a], [b]) => Number(a) - Number(b))
  const found = names(entries.map(([k, v]) => (/^\d{1,3}$/.test(k) ? vncSecurityType(Number(k), str(v)) : str(v))))
  // RFB security type 1 is "None": a session without authentication.
  return { names: found, noauth: entries.some(([k, v]) => k === '1' || str(v).trim().toLowerCase() === 'none') }
}

/** An SMTP greeting and EHLO answer as Shodan's banner text holds them. */
function smtpFromData(data: string): Found['smtp'] {
  const all = lines(data).filter((l) => l.trim() !== '')
  const banner = all[0]?.startsWith('220') ? given(all[0]) : undefined
  // The EHLO answer: 250 lines, the first greets, the others name extensions.
  const ehlo = all.filter((l) => /^250[ -]/.test(l)).map((l) => l.slice(4).trim())
  const extensions = names(ehlo.slice(1))
  return { banner, starttls: extensions ? extensions.some((x) => x.toUpperCase() === 'STARTTLS') : undefined, extensions }
}

/** What the banner `b` says of its protocol; `protocol` is the event's (from the module name). */
export function shodanProtocols(b: Json, protocol: string, data: string): Found {
  const found: Found = {}
  const ssh = obj(b.ssh)
  if (ssh) found.ssh = sshExtension(ssh)

  const redis = obj(b.redis)
  const server = obj(redis?.server)
  if (server) {
    // Shodan asks INFO without credentials: an answer means none were needed.
    found.redis = { version: given(str(server.redis_version)), mode: given(str(server.redis_mode)), os: given(str(server.os)), auth_required: false }
  } else if (protocol === 'redis' && /NOAUTH|Authentication required/i.test(data)) found.redis = { auth_required: true }

  const mongodb = obj(b.mongodb)
  if (mongodb) {
    const databases = Array.isArray(at(mongodb, 'listDatabases', 'databases')) ? (at(mongodb, 'listDatabases', 'databases') as unknown[]) : []
    found.mongodb = {
      version: given(str(at(mongodb, 'buildInfo', 'version'))),
      databases: names(databases.map((d) => str(obj(d)?.name))),
      auth_required: typeof mongodb.authentication === 'boolean' ? mongodb.authentication : undefined,
      wire_version: count(at(mongodb, 'buildInfo', 'maxWireVersion')),
    }
  }

  const ftp = obj(b.ftp)
  if (ftp || protocol === 'ftp') {
    const auth = strings(at(ftp, 'features', 'AUTH', 'parameters')).map((p) => p.toUpperCase())
    found.ftp = {
      banner: /^\d{3}/.test(data) ? given(lines(data)[0]) : undefined,
      // FEAT lists `AUTH TLS` when the server takes it; its absence is not a refusal.
      tls_supported: auth.includes('TLS') || auth.includes('SSL') ? true : undefined,
      anonymous: typeof ftp?.anonymous === 'boolean' ? ftp.anonymous : undefined,
    }
  }

  const vnc = obj(b.vnc)
  if (vnc) {
    const types = obj(vnc.security_types)
    const security = types ? securityTypes(types) : undefined
    found.vnc = { version: given(rfbVersion(str(vnc.protocol_version))), security_types: security?.names, noauth: security?.noauth }
  }

  const mysql = obj(b.mysql)
  if (mysql) {
    found.mysql = {
      version: given(str(mysql.version)),
      protocol_version: count(mysql.protocol_version),
      auth_plugin: given(str(mysql.authentication_plugin)),
      // A number (the status bits) or text: the protocol's flag names either way (vocabulary.ts).
      server_status: given(mysqlStatus(mysql.server_status) ?? str(mysql.server_status)),
    }
  }

  const amqp = obj(b.amqp)
  if (amqp) {
    const props = obj(amqp.server_properties) ?? {}
    found.amqp = {
      protocol_major: count(amqp.version_major),
      protocol_minor: count(amqp.version_minor),
      product: given(str(props.product)),
      version: given(str(props.version)),
      platform: given(str(props.platform)),
    }
  }

  const ldap = obj(b.ldap)
  if (ldap) {
    found.ldap = {
      naming_contexts: list(attribute(ldap, 'namingContexts', 'namingcontexts')),
      supported_versions: list(attribute(ldap, 'supportedLDAPVersion', 'supportedLDAPversion', 'supportedLdapVersion', 'supportedldapversion')),
      vendor_name: list(attribute(ldap, 'vendorName', 'vendorname'))?.[0],
      vendor_version: list(attribute(ldap, 'vendorVersion', 'vendorversion'))?.[0],
      supported_sasl: list(attribute(ldap, 'supportedSASLMechanisms', 'supportedsaslmechanisms')),
    }
  }

  const dns = obj(b.dns)
  // Shodan's `software` is the server's `version.bind` answer: `dns.version`, where nmap's
  // dns-nsid puts the same answer (docs/format.md, "Vocabulary").
  if (dns) found.dns = { version: given(str(dns.software)), recursion: typeof dns.recursive === 'boolean' ? dns.recursive : undefined }

  const telnet = obj(b.telnet)
  if (telnet) found.telnet = { options: names(telnetOptions([...strings(telnet.will), ...strings(telnet.do)])) }

  const ntlm = obj(b.ntlm)
  const rdpEncryption = obj(b.rdp_encryption)
  if (protocol === 'rdp' && (ntlm || rdpEncryption)) {
    const protocols = strings(rdpEncryption?.protocols).map((p) => p.toUpperCase())
    found.rdp = {
      product_version: given(str(ntlm?.os_build)),
      ssl_enabled: protocols.includes('SSL') ? true : undefined,
      hostname: given(str(ntlm?.fqdn)) ?? given(str(ntlm?.netbios_computer_name)),
    }
  }

  if (protocol === 'smtp') found.smtp = smtpFromData(data)
  if (protocol === 'rtsp' && /^RTSP\/\d/.test(data)) {
    found.rtsp = { server: header(data, 'Server'), methods: names((header(data, 'Public') ?? '').split(',')) }
  }
  if (protocol === 'memcache' || protocol === 'memcached') {
    const s = stats(data)
    if (s.size > 0) {
      found.memcached = {
        version: given(s.get('version')),
        libevent: given(s.get('libevent')),
        curr_items: count(s.get('curr_items')),
        total_items: count(s.get('total_items')),
        bytes: count(s.get('bytes')),
        max_bytes: count(s.get('limit_maxbytes')),
        cmd_get: count(s.get('cmd_get')),
        cmd_set: count(s.get('cmd_set')),
        get_hits: count(s.get('get_hits')),
        get_misses: count(s.get('get_misses')),
        threads: count(s.get('threads')),
      }
    }
  }
  return found
}
