/**
 * One vocabulary per member (docs/format.md, "Vocabulary"): the same fact, from whichever tool
 * reported it, lands in the same member with the same spelling; and `normalize` gives other
 * spellings of it, in a lenient document, that same spelling. Each row is one fact, written as
 * each tool writes it (their documented shapes; spec/tool-formats.md and the tools' sources).
 */
import { describe, expect, it } from 'vitest'
import { censys } from '../../src/convert/censys/index.js'
import { httpx } from '../../src/convert/httpx/index.js'
import { nmapXml } from '../../src/convert/nmap/index.js'
import { shodan } from '../../src/convert/shodan/index.js'
import { tlsx } from '../../src/convert/tlsx/index.js'
import type { Converter } from '../../src/convert/types.js'
import { zgrab2 } from '../../src/convert/zgrab2/index.js'
import { normalize } from '../../src/normalize/index.js'
import type { Event } from '../../src/schema/index.js'
import { convertText } from '../support/golden.js'

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;')

/** nmap: one open port of `service` with these scripts (`[id, output, tree]`). */
const nmap = (service: string, scripts: [string, string, string?][]) =>
  [
    nmapXml,
    `<?xml version="1.0"?>\n<nmaprun scanner="nmap" start="1700000000">\n<host><status state="up"/><address addr="192.0.2.1" addrtype="ipv4"/><ports><port protocol="tcp" portid="1"><state state="open"/><service name="${service}" method="probed"/>${scripts
      .map(([id, output, tree]) => `<script id="${id}" output="${esc(output)}">${tree ?? ''}</script>`)
      .join('')}</port></ports></host>\n</nmaprun>\n`,
  ] as const

/** ZGrab2: one module's result. */
const zgrab = (module: string, result: object) => [zgrab2, `${JSON.stringify({ ip: '192.0.2.1', data: { [module]: { status: 'success', protocol: module, result } } })}\n`] as const

/** Shodan: one banner of `module`. */
const banner = (module: string, members: object) => [shodan, `${JSON.stringify({ ip_str: '192.0.2.1', port: 1, transport: 'tcp', data: '', _shodan: { module }, ...members })}\n`] as const

/** Censys: one host with one service. */
const censysService = (service: object) => [censys, `${JSON.stringify({ ip: '192.0.2.1', services: [{ port: 1, transport_protocol: 'TCP', ...service }] })}\n`] as const

type Source = readonly [Converter, string]

/** The member at a dotted path of an event (`ssh.fingerprint`, `mysql.server_status`). */
const member = (e: Event, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], e)

async function fact(source: Source, path: string): Promise<unknown> {
  const { events, problems } = await convertText(source[0], source[1])
  expect(problems.map((p) => p.reason), `${source[0].name}: no problem`).toEqual([])
  return member(events[0]!, path)
}

// A test key and certificate made for these tests.
const ED25519 = 'AAAAC3NzaC1lZDI1NTE5AAAAIAAkpVTvNEfVhuu58FgWX2nEKB6jcmHEj2D8S82k4Q71'
const ED25519_SHA256_HEX = '6c02446c829f64cd8764482518bc145564a7242b4e52b8d2cf81a8d463ec6064'
const ED25519_SHA256 = 'SHA256:bAJEbIKfZM2HZEglGLwUVWSnJCtOUrjSz4Go1GPsYGQ'
const ED25519_MD5 = '5b:48:8e:5f:f7:e1:15:4e:15:09:26:b4:de:89:bf:51'

interface Row {
  fact: string
  path: string
  value: unknown
  sources: Source[]
  /** Other spellings of the same fact, in a lenient document's member: normalize gives `value`. */
  lenient?: unknown[]
}

const ROWS: Row[] = [
  {
    fact: 'MySQL in autocommit mode',
    path: 'mysql.server_status',
    value: 'SERVER_STATUS_AUTOCOMMIT',
    sources: [
      nmap('mysql', [['mysql-info', '\n  Protocol: 10\n  Status: Autocommit', '<elem key="Protocol">10</elem><elem key="Status">Autocommit</elem>']]),
      zgrab('mysql', { protocol_version: 10, server_version: '8.0.36', status_flags: { SERVER_STATUS_AUTOCOMMIT: true } }),
      banner('mysql', { mysql: { protocol_version: 10, version: '8.0.36', server_status: 2 } }),
      banner('mysql', { mysql: { protocol_version: 10, version: '8.0.36', server_status: '2' } }),
    ],
    lenient: ['Autocommit', '2', '0x0002', 'server_status_autocommit'],
  },
  {
    fact: 'MySQL status with two flags, in bit order',
    path: 'mysql.server_status',
    value: 'SERVER_STATUS_IN_TRANS, SERVER_STATUS_AUTOCOMMIT',
    sources: [
      zgrab('mysql', { protocol_version: 10, status_flags: { SERVER_STATUS_AUTOCOMMIT: true, SERVER_STATUS_IN_TRANS: true } }),
      banner('mysql', { mysql: { protocol_version: 10, server_status: 3 } }),
    ],
    lenient: ['3', 'SERVER_STATUS_AUTOCOMMIT, SERVER_STATUS_IN_TRANS', 'InTransaction, Autocommit'],
  },
  {
    fact: "a DNS server's version.bind answer",
    path: 'dns',
    value: { version: '9.18.24-1ubuntu1.4-Ubuntu' },
    sources: [
      nmap('domain', [['dns-nsid', '\n  bind.version: 9.18.24-1ubuntu1.4-Ubuntu', '<elem key="bind.version">9.18.24-1ubuntu1.4-Ubuntu</elem>']]),
      banner('dns-udp', { dns: { recursive: null, resolver_hostname: null, resolver_id: null, software: '9.18.24-1ubuntu1.4-Ubuntu' } }),
    ],
  },
  {
    fact: 'Telnet options by RFC name',
    path: 'telnet.options',
    value: ['ECHO', 'SUPPRESS-GO-AHEAD', 'TERMINAL-TYPE'],
    sources: [
      zgrab('telnet', { banner: 'login: ', will: [{ name: 'Echo', value: 1 }, { name: 'Suppress Go Ahead', value: 3 }], do: [{ name: 'Terminal Type', value: 24 }] }),
      banner('telnet', { telnet: { will: ['Echo', 'Suppress Go Ahead'], do: ['Terminal Type'], wont: [], dont: [] } }),
    ],
    lenient: [['Echo', 'Suppress Go Ahead', 'Terminal Type'], ['1', '3', '24'], ['ECHO', 'SGA', 'TTYPE', 'ECHO']],
  },
  {
    fact: 'Telnet encryption offered',
    path: 'telnet.options',
    value: ['ENCRYPT'],
    sources: [
      nmap('telnet', [['telnet-encryption', '\n  Telnet server supports encryption']]),
      zgrab('telnet', { banner: 'login: ', do: [{ name: 'Encryption Option', value: 38 }] }),
      banner('telnet', { telnet: { will: [], do: ['Encryption Option'] } }),
    ],
    lenient: [['Encryption Option'], ['38']],
  },
  {
    fact: 'VNC security types, by name and number',
    path: 'vnc.security_types',
    value: ['None (1)', 'VNC Authentication (2)'],
    sources: [
      nmap('vnc', [['vnc-info', '\n  Protocol version: 3.8\n  Security types: \n    None (1)\n    VNC Authentication (2)']]),
      nmap('vnc', [
        [
          'vnc-info',
          'x',
          '<elem key="Protocol version">3.8</elem><table key="Security types"><table><elem key="name">None</elem><elem key="type">1</elem></table><table><elem key="name">VNC Authentication</elem><elem key="type">2</elem></table></table>',
        ],
      ]),
      banner('vnc', { vnc: { protocol_version: '3.8', security_types: { '2': 'VNC Authentication', '1': 'None' } } }),
    ],
    lenient: [['None', 'VNC Authentication'], ['None (1)', 'VNC authentication (2)'], ['1', '2']],
  },
  {
    fact: "two VNC security types of one name stay apart",
    path: 'vnc.security_types',
    value: ['Mac OS X security type (30)', 'Mac OS X security type (35)'],
    sources: [
      nmap('vnc', [['vnc-info', '\n  Protocol version: 3.889\n  Security types: \n    Mac OS X security type (30)\n    Mac OS X security type (35)']]),
      banner('vnc', { vnc: { protocol_version: '3.889', security_types: { '30': 'Mac OS X security type', '35': 'Mac OS X security type' } } }),
    ],
  },
  {
    fact: 'the RFB version',
    path: 'vnc.version',
    value: '3.8',
    sources: [nmap('vnc', [['vnc-info', '\n  Protocol version: 3.8\n  Security types: \n    VNC Authentication (2)']]), banner('vnc', { vnc: { protocol_version: '3.8', security_types: { '2': 'VNC Authentication' } } })],
    lenient: ['RFB 003.008', '003.008'],
  },
  {
    fact: 'a host key fingerprint, from the key or its SHA-256',
    path: 'ssh.fingerprint',
    value: ED25519_SHA256,
    sources: [
      nmap('ssh', [['ssh-hostkey', `\n  256 ${ED25519_MD5} (ED25519)`, `<table><elem key="type">ssh-ed25519</elem><elem key="bits">256</elem><elem key="fingerprint">${ED25519_MD5.replace(/:/g, '')}</elem><elem key="key">${ED25519}</elem></table>`]]),
      nmap('ssh', [['ssh-hostkey', `\n  256 ${ED25519_MD5} (ED25519)\n  ssh-ed25519 ${ED25519}`]]),
      zgrab('ssh', { server_id: { raw: 'SSH-2.0-OpenSSH_9.6', version: '2.0', software: 'OpenSSH_9.6' }, key_exchange: { server_host_key: { algorithm: 'ssh-ed25519', fingerprint_sha256: ED25519_SHA256_HEX, raw: ED25519 } } }),
      banner('ssh', { data: 'SSH-2.0-OpenSSH_9.6\r\n', ssh: { type: 'ssh-ed25519', key: ED25519, fingerprint: ED25519_MD5 } }),
      censysService({ service_name: 'SSH', extended_service_name: 'SSH', banner: 'SSH-2.0-OpenSSH_9.6', ssh: { server_host_key: { fingerprint_sha256: ED25519_SHA256_HEX } } }),
    ],
  },
  {
    fact: 'a host key known by its MD5 only',
    path: 'ssh.fingerprint',
    value: `MD5:${ED25519_MD5}`,
    sources: [nmap('ssh', [['ssh-hostkey', `\n  256 ${ED25519_MD5} (ED25519)`]]), banner('ssh', { data: 'SSH-2.0-OpenSSH_9.6\r\n', ssh: { type: 'ssh-ed25519', fingerprint: ED25519_MD5.toUpperCase() } })],
  },
  {
    fact: 'the host key and its type',
    path: 'ssh',
    value: expect.objectContaining({ key_type: 'ssh-ed25519', key: ED25519 }),
    sources: [
      nmap('ssh', [['ssh-hostkey', `\n  256 ${ED25519_MD5} (ED25519)\n  ssh-ed25519 ${ED25519}`]]),
      zgrab('ssh', { server_id: { raw: 'SSH-2.0-OpenSSH_9.6' }, key_exchange: { server_host_key: { algorithm: 'ssh-ed25519', fingerprint_sha256: ED25519_SHA256_HEX, raw: ED25519 } } }),
      banner('ssh', { data: 'SSH-2.0-OpenSSH_9.6\r\n', ssh: { type: 'ssh-ed25519', key: ED25519 } }),
    ],
  },
  {
    fact: 'certificate names hold DNS names only, never an IP literal',
    path: 'ssl.certificate.domain',
    value: ['localhost'],
    sources: [
      nmap('https', [
        [
          'ssl-cert',
          'x',
          '<table key="subject"><elem key="commonName">localhost</elem></table><table key="extensions"><table><elem key="name">X509v3 Subject Alternative Name</elem><elem key="value">DNS:localhost, DNS:::1, DNS:127.0.0.1, IP Address:127.0.0.1</elem></table></table>',
        ],
      ]),
      zgrab('tls', { handshake_log: { server_hello: { version: { name: 'TLSv1.2' } }, server_certificates: { certificate: { parsed: { subject: { common_name: ['localhost'] }, extensions: { subject_alt_name: { dns_names: ['localhost', '::1', '127.0.0.1'] } } } } } } }),
      censysService({ service_name: 'HTTP', extended_service_name: 'HTTPS', tls: { certificates: { leaf_data: { subject: { common_name: ['localhost'] }, names: ['localhost', '::1', '127.0.0.1'] } } } }),
      [tlsx, `${JSON.stringify({ host: '192.0.2.1', ip: '192.0.2.1', port: '443', probe_status: true, tls_version: 'tls12', subject_cn: 'localhost', subject_an: ['localhost', '::1', '127.0.0.1'] })}\n`],
      [httpx, `${JSON.stringify({ url: 'https://192.0.2.1', input: '192.0.2.1', host: '192.0.2.1', port: '443', scheme: 'https', status_code: 200, tls: { tls_version: 'tls12', subject_cn: 'localhost', subject_an: ['localhost', '::1', '127.0.0.1'] } })}\n`],
    ],
  },
  {
    fact: 'Redis answers INFO without credentials',
    path: 'redis.auth_required',
    value: false,
    sources: [
      zgrab('redis', { ping_response: "(Error: ERR unknown command 'PING', with args beginning with: )", info_response: '# Server\r\nredis_version:7.2.4\r\n', version: '7.2.4' }),
      zgrab('redis', { ping_response: 'PONG', info_response: '# Server\r\nredis_version:7.2.4\r\n', version: '7.2.4' }),
      banner('redis', { redis: { server: { redis_version: '7.2.4' } } }),
    ],
    lenient: ['no', 'false', 0],
  },
  {
    fact: 'Redis wants credentials',
    path: 'redis.auth_required',
    value: true,
    sources: [
      nmap('redis', [['redis-info', 'ERROR: Authentication required']]),
      zgrab('redis', { ping_response: '(Error: NOAUTH Authentication required.)', info_response: '(Error: NOAUTH Authentication required.)' }),
      banner('redis', { data: '-NOAUTH Authentication required.\r\n' }),
    ],
  },
  {
    fact: "MongoDB's wire version",
    path: 'mongodb.wire_version',
    value: 17,
    sources: [
      nmap('mongodb', [['mongodb-databases', '\n  errmsg = command listDatabases requires authentication\n  isMaster\n    maxWireVersion = 17\n    ok = 1.0']]),
      nmap('mongodb', [['mongodb-info', '\n  MongoDB Build info\n    version = 6.0.14\n    maxWireVersion = 17\n    ok = 1.0']]),
      zgrab('mongodb', { is_master: { is_master: true, max_wire_version: 17 }, build_info: { version: '6.0.14' } }),
      banner('mongodb', { mongodb: { buildInfo: { version: '6.0.14', maxWireVersion: 17 } } }),
    ],
  },
  {
    fact: 'an AMQP server',
    path: 'amqp',
    value: expect.objectContaining({ product: 'RabbitMQ', version: '3.12.13', platform: 'Erlang/OTP 26.2.2' }),
    sources: [
      nmap('amqp', [['amqp-info', '\n  platform: Erlang/OTP 26.2.2\n  product: RabbitMQ\n  version: 3.12.13']]),
      zgrab('amqp091', { version_major: 0, version_minor: 9, server_properties: { product: 'RabbitMQ', version: '3.12.13', platform: 'Erlang/OTP 26.2.2' }, locales: ['en_US'], auth_success: false }),
      banner('amqp', { amqp: { version_major: 0, version_minor: 9, server_properties: { product: 'RabbitMQ', version: '3.12.13', platform: 'Erlang/OTP 26.2.2' } } }),
    ],
  },
  {
    fact: 'an AMQP protocol version',
    path: 'amqp',
    value: expect.objectContaining({ protocol_major: 0, protocol_minor: 9 }),
    sources: [
      zgrab('amqp091', { version_major: 0, version_minor: 9, server_properties: { product: 'RabbitMQ' } }),
      banner('amqp', { amqp: { version_major: 0, version_minor: 9, server_properties: { product: 'RabbitMQ' } } }),
    ],
  },
  {
    fact: "memcached's stats",
    path: 'memcached',
    value: { version: '1.6.21', libevent: '2.1.12-stable', curr_items: 12, total_items: 40, bytes: 2048, max_bytes: 67108864, cmd_get: 9, cmd_set: 40, get_hits: 7, get_misses: 2, threads: 4 },
    sources: [
      zgrab('memcached', {
        version: '1.6.21',
        libevent_version: '2.1.12-stable',
        supports_ascii: true,
        supports_binary: false,
        stats: { pid: 1, uptime: 10, curr_items: 12, total_items: 40, bytes: 2048, limit_maxbytes: 67108864, cmd_get: 9, cmd_set: 40, get_hits: 7, get_misses: 2, threads: 4 },
      }),
      banner('memcache', {
        data: 'STAT pid 1\r\nSTAT uptime 10\r\nSTAT version 1.6.21\r\nSTAT libevent 2.1.12-stable\r\nSTAT curr_items 12\r\nSTAT total_items 40\r\nSTAT bytes 2048\r\nSTAT limit_maxbytes 67108864\r\nSTAT cmd_get 9\r\nSTAT cmd_set 40\r\nSTAT get_hits 7\r\nSTAT get_misses 2\r\nSTAT threads 4\r\nEND\r\n',
      }),
    ],
  },
  {
    fact: 'SMTP extensions and STARTTLS',
    path: 'smtp',
    value: expect.objectContaining({ starttls: true, extensions: ['PIPELINING', 'SIZE 10240000', 'STARTTLS', '8BITMIME'] }),
    sources: [
      nmap('smtp', [['smtp-commands', 'mail.example.com, PIPELINING, SIZE 10240000, STARTTLS, 8BITMIME']]),
      zgrab('smtp', { banner: '220 mail.example.com ESMTP\r\n', ehlo: '250-mail.example.com\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME\r\n' }),
      banner('smtp', { data: '220 mail.example.com ESMTP\r\n250-mail.example.com\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME\r\n' }),
    ],
  },
]

describe('one vocabulary per member', () => {
  for (const row of ROWS) {
    it(`${row.fact}: ${row.path} from ${row.sources.map(([c]) => c.name).join(', ')}`, async () => {
      for (const source of row.sources) expect(await fact(source, row.path), `${source[0].name}: ${source[1].slice(0, 160)}`).toEqual(row.value)
    })
    if (row.lenient) {
      it(`${row.fact}: normalize spells ${row.path} the same`, () => {
        const [object, name] = row.path.split('.') as [string, string]
        for (const spelling of row.lenient!) {
          const result = normalize({ event_type: 'service', ip: '192.0.2.1', [object]: { [name]: spelling } })
          expect(result.ok, JSON.stringify(spelling)).toBe(true)
          if (result.ok) expect(member(result.event, row.path), JSON.stringify(spelling)).toEqual(row.value)
        }
      })
    }
  }
})
