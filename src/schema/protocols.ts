/**
 * The protocol objects of the format owner's current event model (Python `l9format` 1.4.0+;
 * docs/specification.md, "The format owner's current event model"): one optional object per
 * protocol, and the members that extend `ssh`. Every member of every object may be left out.
 * Types as the facts give them: strings unless marked, booleans for the yes/no names, integers
 * and string lists where listed.
 *
 * Canonical order: the facts do not say where the owner's library puts the objects among the
 * specification's members, so they come after all of them (after `network`), in the facts'
 * table order; inside each object, members keep the table's order; the `ssh` members follow
 * the four of the specification. docs/normalize.md, "Protocol objects".
 */
import Type, { type Static } from 'typebox'
import { flag, int, text, texts } from './fields.js'

const { Optional } = Type

/** Members that extend `ssh`, after its four specified ones; each may be left out. */
export const SSH_EXTENSION = {
  key_type: Optional(text('Key type', 'Type of the host key by its wire name (as in `known_hosts`), for example `ssh-ed25519` or `ecdsa-sha2-nistp256`.')),
  key: Optional(text('Key', 'The host public key, base64 as in `known_hosts`.')),
  kex_algorithms: Optional(texts('Key exchange algorithms', 'Key exchange methods the server offers, in its order.')),
  host_key_algorithms: Optional(texts('Host key algorithms', 'Host key types the server offers, in its order.')),
  encryption_algorithms: Optional(texts('Encryption algorithms', 'Ciphers the server offers, in its order.')),
  mac_algorithms: Optional(texts('MAC algorithms', 'Message authentication codes the server offers, in its order.')),
  compression_algorithms: Optional(texts('Compression algorithms', 'Compression methods the server offers, in its order.')),
  auth_methods: Optional(texts('Authentication methods', 'Authentication methods the server accepts, for example `publickey`.')),
}

const object = <T extends Parameters<typeof Type.Object>[0]>(properties: T, title: string, description: string) =>
  Type.Object(properties, { title, description })

export const Vnc = object(
  {
    version: Optional(text('Version', 'RFB protocol version as `major.minor`, for example `3.8`.')),
    security_types: Optional(texts('Security types', 'Security types the server offers, each as `<name> (<number>)`, for example `VNC Authentication (2)`.')),
    noauth: Optional(flag('No authentication', 'The server offers a session without authentication.')),
  },
  'VNC',
  'What a VNC (RFB) handshake showed.',
)

export const Ftp = object(
  {
    banner: Optional(text('Banner', 'Greeting the server sent.')),
    tls_supported: Optional(flag('TLS supported', 'The server accepts `AUTH TLS`.')),
    anonymous: Optional(flag('Anonymous', 'Anonymous login is allowed.')),
  },
  'FTP',
  'What an FTP session showed.',
)

export const Smtp = object(
  {
    banner: Optional(text('Banner', 'Greeting the server sent.')),
    starttls: Optional(flag('STARTTLS', 'The server offers `STARTTLS`.')),
    extensions: Optional(texts('Extensions', 'ESMTP extensions the server announced, for example `PIPELINING`.')),
  },
  'SMTP',
  'What an SMTP session showed.',
)

export const Telnet = object(
  {
    banner: Optional(text('Banner', 'Text the server sent first.')),
    options: Optional(texts('Options', 'Telnet options the server negotiated, by their RFC names, for example `SUPPRESS-GO-AHEAD`.')),
    auth_required: Optional(flag('Authentication required', 'The server asks for credentials.')),
  },
  'Telnet',
  'What a Telnet session showed.',
)

export const Redis = object(
  {
    version: Optional(text('Version', 'Server version, for example `7.0.11`.')),
    mode: Optional(text('Mode', 'Server mode, for example `standalone` or `cluster`.')),
    os: Optional(text('OS', 'Operating system the server reports.')),
    auth_required: Optional(flag('Authentication required', 'Commands need authentication.')),
  },
  'Redis',
  'What a Redis server answered.',
)

export const Mysql = object(
  {
    version: Optional(text('Version', 'Server version from the handshake.')),
    protocol_version: Optional(int('Protocol version', 'Protocol version from the handshake, usually 10.')),
    auth_plugin: Optional(text('Authentication plug-in', 'Default authentication plug-in, for example `caching_sha2_password`.')),
    server_status: Optional(text('Server status', 'Status flags set in the handshake, by the protocol\'s names in bit order, comma-separated, for example `SERVER_STATUS_AUTOCOMMIT`.')),
  },
  'MySQL',
  'What a MySQL handshake showed.',
)

export const Postgresql = object(
  {
    version: Optional(text('Version', 'Server version.')),
    databases: Optional(texts('Databases', 'Databases found.')),
    ssl_enabled: Optional(flag('SSL enabled', 'The server accepts SSL.')),
    auth_method: Optional(text('Authentication method', 'Authentication the server asked for, for example `md5` or `trust`.')),
    server_encoding: Optional(text('Server encoding', 'Server character set.')),
    client_encoding: Optional(text('Client encoding', 'Client character set.')),
    timezone: Optional(text('Time zone', 'Server time zone.')),
    max_connections: Optional(int('Maximum connections', 'Configured connection limit.')),
  },
  'PostgreSQL',
  'What a PostgreSQL server showed.',
)

export const Mongodb = object(
  {
    version: Optional(text('Version', 'Server version.')),
    databases: Optional(texts('Databases', 'Databases found.')),
    auth_required: Optional(flag('Authentication required', 'Listing databases needs authentication.')),
    wire_version: Optional(int('Wire version', 'Highest wire protocol version the server speaks.')),
  },
  'MongoDB',
  'What a MongoDB server showed.',
)

export const Memcached = object(
  {
    version: Optional(text('Version', 'Server version.')),
    libevent: Optional(text('libevent', 'Version of libevent the server runs on.')),
    curr_items: Optional(int('Current items', 'Items stored now.')),
    total_items: Optional(int('Total items', 'Items stored since start.')),
    bytes: Optional(int('Bytes', 'Bytes used for items.')),
    max_bytes: Optional(int('Maximum bytes', 'Memory limit for items, in bytes.')),
    cmd_get: Optional(int('Get commands', '`get` commands served.')),
    cmd_set: Optional(int('Set commands', '`set` commands served.')),
    get_hits: Optional(int('Get hits', '`get` commands that found their key.')),
    get_misses: Optional(int('Get misses', '`get` commands that did not.')),
    threads: Optional(int('Threads', 'Worker threads.')),
  },
  'Memcached',
  'What a memcached server reported (`stats`).',
)

export const Amqp = object(
  {
    protocol_major: Optional(int('Protocol major', 'Major AMQP protocol version.')),
    protocol_minor: Optional(int('Protocol minor', 'Minor AMQP protocol version.')),
    product: Optional(text('Product', 'Server product, for example `RabbitMQ`.')),
    version: Optional(text('Version', 'Server version.')),
    platform: Optional(text('Platform', 'Platform the server runs on, for example `Erlang/OTP 26`.')),
  },
  'AMQP',
  'What an AMQP server announced.',
)

export const Ldap = object(
  {
    naming_contexts: Optional(texts('Naming contexts', 'Naming contexts of the root DSE.')),
    supported_versions: Optional(texts('Supported versions', 'LDAP versions the server supports.')),
    vendor_name: Optional(text('Vendor', 'Vendor name of the root DSE.')),
    vendor_version: Optional(text('Vendor version', 'Vendor version of the root DSE.')),
    supported_sasl: Optional(texts('SASL mechanisms', 'SASL mechanisms the server supports.')),
    anonymous_bind: Optional(flag('Anonymous bind', 'An anonymous bind succeeds.')),
    can_enumerate: Optional(flag('Can enumerate', 'Entries can be listed without credentials.')),
  },
  'LDAP',
  'What an LDAP server showed.',
)

export const Sip = object(
  {
    version: Optional(text('Version', 'SIP version, for example `SIP/2.0`.')),
    user_agent: Optional(text('User agent', '`User-Agent` of the answer.')),
    server: Optional(text('Server', '`Server` of the answer.')),
    allow: Optional(texts('Allowed methods', 'Methods in `Allow`.')),
    supported: Optional(texts('Supported extensions', 'Extensions in `Supported`.')),
  },
  'SIP',
  'What a SIP server answered (usually to `OPTIONS`).',
)

export const Rdp = object(
  {
    product_version: Optional(text('Product version', 'Product version the server reports.')),
    nla_required: Optional(flag('NLA required', 'Network Level Authentication is required.')),
    ssl_enabled: Optional(flag('SSL enabled', 'The server offers TLS.')),
    hostname: Optional(text('Host name', 'Host name the server reports.')),
  },
  'RDP',
  'What an RDP server showed.',
)

export const Dns = object(
  {
    software: Optional(text('Software', 'Server software by name, for example `BIND`.')),
    version: Optional(text('Version', 'The server\'s answer to `version.bind` (CH TXT), as given, for example `9.18.19-1~deb12u1-Debian`.')),
    recursion: Optional(flag('Recursion', 'The server resolves recursively for anyone.')),
    dnssec: Optional(flag('DNSSEC', 'The server answers with DNSSEC records.')),
    zone_transfer: Optional(flag('Zone transfer', 'A zone transfer (AXFR) succeeds.')),
    nameservers: Optional(texts('Name servers', 'Name servers found.')),
  },
  'DNS',
  'What a DNS server showed.',
)

export const Rtsp = object(
  {
    server: Optional(text('Server', '`Server` of the answer.')),
    methods: Optional(texts('Methods', 'Methods in `Public`.')),
  },
  'RTSP',
  'What an RTSP server answered.',
)

/** The protocol objects by member name, in canonical order (the facts' table order). */
export const PROTOCOLS = {
  vnc: Vnc,
  ftp: Ftp,
  smtp: Smtp,
  telnet: Telnet,
  redis: Redis,
  mysql: Mysql,
  postgresql: Postgresql,
  mongodb: Mongodb,
  memcached: Memcached,
  amqp: Amqp,
  ldap: Ldap,
  sip: Sip,
  rdp: Rdp,
  dns: Dns,
  rtsp: Rtsp,
} as const

/**
 * The same objects as optional members of the event. `Type.Optional` makes a copy, so this copy
 * is what the event holds and what the schema documents name as a part (matched by identity).
 */
export const PROTOCOL_MEMBERS = {
  vnc: Optional(Vnc),
  ftp: Optional(Ftp),
  smtp: Optional(Smtp),
  telnet: Optional(Telnet),
  redis: Optional(Redis),
  mysql: Optional(Mysql),
  postgresql: Optional(Postgresql),
  mongodb: Optional(Mongodb),
  memcached: Optional(Memcached),
  amqp: Optional(Amqp),
  ldap: Optional(Ldap),
  sip: Optional(Sip),
  rdp: Optional(Rdp),
  dns: Optional(Dns),
  rtsp: Optional(Rtsp),
} as const

export type ProtocolName = keyof typeof PROTOCOLS
export const PROTOCOL_NAMES = Object.keys(PROTOCOLS) as ProtocolName[]

/** The protocol objects' types, by member name. */
export type Protocols = { [K in ProtocolName]: Static<(typeof PROTOCOLS)[K]> }
