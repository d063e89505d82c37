/**
 * Example values of the protocol objects and of the `ssh` extension, every member filled: shown
 * in docs/format.md, and the documents "with every object" of the tests. Typed by the TypeBox
 * `Static<>` types, so the compiler holds them to the shapes.
 */
import { emptyEvent } from './empty.js'
import type { Event, Ssh } from './event.js'
import type { Protocols } from './protocols.js'

/** The members that extend `ssh`, every one filled. */
export function exampleSshExtension(): Required<Omit<Ssh, 'fingerprint' | 'version' | 'banner' | 'motd'>> {
  return {
    key_type: 'ssh-ed25519',
    key: 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
    kex_algorithms: ['curve25519-sha256', 'curve25519-sha256@libssh.org', 'ecdh-sha2-nistp256', 'diffie-hellman-group14-sha256'],
    host_key_algorithms: ['rsa-sha2-512', 'rsa-sha2-256', 'ecdsa-sha2-nistp256', 'ssh-ed25519'],
    encryption_algorithms: ['chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes256-gcm@openssh.com'],
    mac_algorithms: ['umac-64-etm@openssh.com', 'hmac-sha2-256-etm@openssh.com', 'hmac-sha2-256'],
    compression_algorithms: ['none', 'zlib@openssh.com'],
    auth_methods: ['publickey', 'password'],
  }
}

/** One value of every protocol object, every member filled, in canonical order. */
export function exampleProtocols(): { [K in keyof Protocols]-?: Required<Protocols[K]> } {
  return {
    vnc: { version: '3.8', security_types: ['VNC Authentication (2)', 'None (1)'], noauth: true },
    ftp: { banner: '220 (vsFTPd 3.0.5)', tls_supported: false, anonymous: true },
    smtp: { banner: '220 mail.example.com ESMTP Postfix', starttls: true, extensions: ['PIPELINING', 'SIZE 10240000', 'STARTTLS', '8BITMIME'] },
    telnet: { banner: 'Ubuntu 22.04 LTS\r\nlogin: ', options: ['ECHO', 'SUPPRESS-GO-AHEAD'], auth_required: true },
    redis: { version: '7.0.11', mode: 'standalone', os: 'Linux 5.15.0-88-generic x86_64', auth_required: false },
    mysql: { version: '8.0.35-0ubuntu0.22.04.1', protocol_version: 10, auth_plugin: 'caching_sha2_password', server_status: 'SERVER_STATUS_AUTOCOMMIT' },
    postgresql: {
      version: '15.5',
      databases: ['postgres', 'template1', 'app'],
      ssl_enabled: true,
      auth_method: 'scram-sha-256',
      server_encoding: 'UTF8',
      client_encoding: 'UTF8',
      timezone: 'Etc/UTC',
      max_connections: 100,
    },
    mongodb: { version: '6.0.12', databases: ['admin', 'config', 'local', 'shop'], auth_required: false, wire_version: 17 },
    memcached: {
      version: '1.6.21',
      libevent: '2.1.12-stable',
      curr_items: 1204,
      total_items: 88412,
      bytes: 1048576,
      max_bytes: 67108864,
      cmd_get: 501233,
      cmd_set: 88412,
      get_hits: 490120,
      get_misses: 11113,
      threads: 4,
    },
    amqp: { protocol_major: 0, protocol_minor: 9, product: 'RabbitMQ', version: '3.12.10', platform: 'Erlang/OTP 26.1.2' },
    ldap: {
      naming_contexts: ['dc=example,dc=com'],
      supported_versions: ['3'],
      vendor_name: 'OpenLDAP',
      vendor_version: '2.6.6',
      supported_sasl: ['DIGEST-MD5', 'SCRAM-SHA-256'],
      anonymous_bind: true,
      can_enumerate: false,
    },
    sip: { version: 'SIP/2.0', user_agent: 'Asterisk PBX 18.20.0', server: '', allow: ['INVITE', 'ACK', 'CANCEL', 'OPTIONS', 'BYE'], supported: ['replaces', 'timer'] },
    rdp: { product_version: '10.0.17763', nla_required: true, ssl_enabled: true, hostname: 'WIN-SRV01' },
    dns: { software: 'BIND', version: '9.18.19-1~deb12u1-Debian', recursion: true, dnssec: false, zone_transfer: false, nameservers: ['ns1.example.com', 'ns2.example.com'] },
    rtsp: { server: 'GStreamer RTSP server', methods: ['OPTIONS', 'DESCRIBE', 'SETUP', 'PLAY', 'TEARDOWN'] },
  }
}

/** An event that carries every protocol object and the whole `ssh` extension, every member filled. */
export function exampleProtocolEvent(): Event {
  const event = emptyEvent()
  event.event_type = 'service'
  event.event_source = 'nmap'
  event.event_pipeline = ['nmap']
  event.ip = '192.0.2.30'
  event.port = '22'
  event.transport = ['tcp']
  event.protocol = 'ssh'
  event.time = '2026-02-07T10:11:12.5Z'
  event.ssh = { fingerprint: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8', version: 2, banner: 'SSH-2.0-OpenSSH_9.6', motd: '', ...exampleSshExtension() }
  return Object.assign(event, exampleProtocols())
}
