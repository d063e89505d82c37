/**
 * ZGrab2 modules → the protocol objects (src/schema/protocols.ts): one reader per module of a
 * protocol that has an object, keyed by the module's `protocol` name. Each reads its module's
 * `result` as ZGrab2 writes it, sets the event's port (the module's default when none is
 * given), transport, protocol and summary, and fills the object with what the result holds;
 * a member the result lacks stays absent. The SSH module's algorithm lists and methods are
 * read in map.ts's ssh() by sshExtension() below.
 */
import { mysqlStatus, sshKeyType, telnetOption, telnetOptionName } from '../../normalize/vocabulary.js'
import type { Event } from '../../schema/index.js'
import { DEFAULT_PORTS } from '../common/net.js'
import { attachProtocols, count, type Found, given, names, type SshExtension } from '../common/protocols.js'
import type { Unconvertible } from '../common/records.js'
import { type Json, at, int, obj, str, strings } from '../common/values.js'
import { fillHandshake } from './tls.js'

type Read = (e: Event, result: Json) => Found

/** The lines of a multi-line answer (`250-a\r\n250 b\r\n`), without their reply codes. */
function replyLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\d{3}[ -]?/, '').trim())
    .filter((line) => line !== '')
}

/** A reply's code class: `2` for success, as the first digit of the first line. */
const replyOk = (text: string): boolean | undefined => (/^\s*\d{3}/.test(text) ? /^\s*2/.test(text) : undefined)

/**
 * The options of `will`/`do` entries (`{"name": "Echo", "value": 1}`), in order, once each, by
 * their RFC names (vocabulary.ts): from the option's number, else its name.
 */
function telnetOptions(result: Json): string[] | undefined {
  const out: string[] = []
  for (const list of [result.will, result.do]) {
    if (!Array.isArray(list)) continue
    for (const entry of list) {
      const value = count(obj(entry)?.value)
      const name = value !== undefined && value <= 255 ? telnetOptionName(value) : telnetOption(str(obj(entry)?.name))
      if (name !== '' && !out.includes(name)) out.push(name)
    }
  }
  return out.length === 0 ? undefined : out
}

/** The default ports of modules whose protocol has none in DEFAULT_PORTS. */
const MODULE_PORTS: Readonly<Record<string, string>> = { amqp091: '5672', memcached: '11211' }

/** The event's protocol name for a module's (`postgres` → `postgresql`, `amqp091` → `amqp`). */
const PROTOCOL_NAMES: Readonly<Record<string, string>> = { postgres: 'postgresql', amqp091: 'amqp' }

/** An INFO answer (`# Server\r\nredis_version:7.2.4…`), not an error or a renamed command's refusal. */
const isInfoText = (text: string) => /^(?:#|redis_version:)/m.test(text) && !/^\s*\(error/i.test(text)

/** A server's refusal to answer before authentication, as Redis words it. */
const NOAUTH = /NOAUTH|authentication required/i

const READERS: Readonly<Record<string, Read>> = {
  ftp(e, r) {
    const banner = given(str(r.banner))
    e.summary = banner ?? ''
    // AUTH TLS, then AUTH SSL when that failed: either accepted means TLS is supported.
    const tls = [str(r.auth_tls), str(r.auth_ssl)].map(replyOk).filter((ok) => ok !== undefined)
    return { ftp: { banner, tls_supported: tls.length === 0 ? undefined : tls.includes(true) } }
  },
  smtp(e, r) {
    const banner = given(str(r.banner))
    const ehlo = replyLines(str(r.ehlo))
    // The first EHLO line greets (the server's name); each further one names an extension.
    const extensions = names(ehlo.slice(1))
    const asked = replyOk(str(r.starttls))
    const starttls = asked ?? (extensions ? extensions.some((x) => x.toUpperCase() === 'STARTTLS') : undefined)
    e.summary = [banner, ...(ehlo.length > 0 ? [`EHLO: ${ehlo.join(', ')}`] : [])].filter((x) => x !== undefined).join('\n')
    return { smtp: { banner, starttls, extensions } }
  },
  telnet(e, r) {
    const banner = given(str(r.banner))
    e.summary = banner ?? ''
    return { telnet: { banner, options: telnetOptions(r) } }
  },
  mysql(e, r) {
    const version = given(str(r.server_version))
    // The status flags set, by the protocol's names in bit order (vocabulary.ts; ZGrab2 uses them too).
    const flags = Object.entries(obj(r.status_flags) ?? {}).filter(([, set]) => set === true).map(([name]) => name)
    e.summary = [version, given(str(r.error_message))].filter((x) => x !== undefined).join('\n')
    return {
      mysql: { version, protocol_version: int(r.protocol_version), auth_plugin: given(str(r.auth_plugin_name)), server_status: given(mysqlStatus(flags.join(', '))) },
    }
  },
  postgres(e, r) {
    const params = obj(r.server_parameters) ?? {}
    const version = given(str(params.server_version))
    e.summary = [version, given(str(r.supported_versions)), given(str(at(r, 'startup_error', 'message')))].filter((x) => x !== undefined).join('\n')
    return {
      postgresql: {
        version,
        // `is_ssl` is false also when ZGrab2 was told not to try: only true says something.
        ssl_enabled: r.is_ssl === true ? true : undefined,
        auth_method: given(str(at(r, 'authentication_mode', 'mode'))),
        server_encoding: given(str(params.server_encoding)),
        client_encoding: given(str(params.client_encoding)),
        timezone: given(str(params.TimeZone)),
      },
    }
  },
  mongodb(e, r) {
    const version = given(str(at(r, 'build_info', 'version')))
    e.summary = version ?? ''
    return { mongodb: { version, wire_version: int(at(r, 'is_master', 'max_wire_version')) } }
  },
  redis(e, r) {
    const ping = str(r.ping_response)
    const info = str(r.info_response)
    let auth: boolean | undefined
    if (NOAUTH.test(ping) || NOAUTH.test(info)) auth = true
    // PING answered before any AUTH (ZGrab2 sends it first): nothing asked for credentials.
    else if (ping.trim() === 'PONG') auth = false
    // PING renamed away, but INFO answered with no AUTH sent (no `auth_response`): none needed.
    else if (r.auth_response === undefined && isInfoText(info)) auth = false
    e.summary = (info.trim() || ping.trim()).replace(/\r\n/g, '\n')
    return { redis: { version: given(str(r.version)), mode: given(str(r.mode)), os: given(str(r.os)), auth_required: auth } }
  },
  amqp091(e, r) {
    const props = obj(r.server_properties) ?? {}
    const major = count(r.version_major)
    const minor = count(r.version_minor)
    const product = given(str(props.product))
    const version = given(str(props.version))
    const platform = given(str(props.platform))
    const head = [major !== undefined && minor !== undefined ? `AMQP ${major}-${minor}` : undefined, product, version, platform && `(${platform})`]
    e.summary = [head.filter((x) => x !== undefined).join(' '), given(str(r.failure))].filter((x) => x !== undefined && x !== '').join('\n')
    return { amqp: { protocol_major: major, protocol_minor: minor, product, version, platform } }
  },
  memcached(e, r) {
    // Without the text protocol's `stats` (a server that answered in binary only) ZGrab2
    // still writes `stats`, all zero: only an answer to `stats` gives the members.
    const ascii = r.supports_ascii === true
    const s = ascii ? (obj(r.stats) ?? {}) : {}
    const version = ascii ? given(str(r.version)) : undefined
    const libevent = ascii ? given(str(r.libevent_version)) : undefined
    const protocols = [ascii ? 'text' : undefined, r.supports_binary === true ? 'binary' : undefined].filter((x) => x !== undefined)
    e.summary = [`memcached${version ? ` ${version}` : ''}${libevent ? `, libevent ${libevent}` : ''}`, protocols.length > 0 ? `protocols: ${protocols.join(', ')}` : undefined]
      .filter((x) => x !== undefined)
      .join('\n')
    return {
      memcached: {
        version,
        libevent,
        curr_items: count(s.curr_items),
        total_items: count(s.total_items),
        bytes: count(s.bytes),
        max_bytes: count(s.limit_maxbytes),
        cmd_get: count(s.cmd_get),
        cmd_set: count(s.cmd_set),
        get_hits: count(s.get_hits),
        get_misses: count(s.get_misses),
        threads: count(s.threads),
      },
    }
  },
}

/** The module names converted here, for messages. */
export const PROTOCOL_MODULE_NAMES = Object.keys(READERS).join(', ')

/** Whether a module of this `protocol` name is converted here. */
export const isProtocolModule = (protocol: string): boolean => Object.hasOwn(READERS, protocol)

/**
 * Fills `e` from a module's result: port, transport, protocol, summary, and its protocol object;
 * a TLS handshake the module made (`tls.handshake_log`, AMQP with `--use-tls`) fills `ssl`.
 */
export function protocolModule(e: Event, protocol: string, result: Json, port: string | undefined): Unconvertible | undefined {
  e.port = port ?? MODULE_PORTS[protocol] ?? DEFAULT_PORTS[protocol]!
  e.transport = ['tcp']
  e.protocol = PROTOCOL_NAMES[protocol] ?? protocol
  attachProtocols(e, READERS[protocol]!(e, result))
  const handshake = obj(at(result, 'tls', 'handshake_log'))
  if (!handshake) return undefined
  e.transport.push('tls')
  return fillHandshake(e, handshake, e.host)
}

/** The `ssh` extension from the SSH module: the server's KEXINIT lists, the host key, the methods. */
export function sshExtension(result: Json): SshExtension {
  const kex = obj(result.server_key_exchange) ?? {}
  const hostKey = obj(at(result, 'key_exchange', 'server_host_key')) ?? obj(result.server_host_key) ?? {}
  return {
    key_type: given(sshKeyType(str(hostKey.algorithm))),
    key: given(str(hostKey.raw)),
    kex_algorithms: names(strings(kex.kex_algorithms)),
    host_key_algorithms: names(strings(kex.host_key_algorithms)),
    // Both directions are offered; the server-to-client lists are what it sends with.
    encryption_algorithms: names(strings(kex.server_to_client_ciphers)),
    mac_algorithms: names(strings(kex.server_to_client_macs)),
    compression_algorithms: names(strings(kex.server_to_client_compression)),
    auth_methods: names(strings(result.userauth)),
  }
}
