/**
 * The converters' protocol objects (src/convert/{nmap,zgrab2,shodan}/protocols.ts): what the
 * golden files do not show on their own. A source that does not answer a yes/no question leaves
 * the member absent; an object with nothing in it is left out; every event stays strict.
 */
import { describe, expect, it } from 'vitest'
import { nmapXml } from '../../src/convert/nmap/index.js'
import { fieldText, fieldValue, parseFields } from '../../src/convert/output/index.js'
import { shodan } from '../../src/convert/shodan/index.js'
import { zgrab2 } from '../../src/convert/zgrab2/index.js'
import { PROTOCOL_NAMES } from '../../src/schema/protocols.js'
import type { Event } from '../../src/schema/index.js'
import { isStrictValid } from '../../src/validate/index.js'
import { convertText } from '../support/golden.js'

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/\n/g, '&#xa;')

/** One nmap port with these scripts (`[id, output, tree]`). */
async function nmapPort(service: string, scripts: [string, string, string?][]): Promise<Event> {
  const body = scripts.map(([id, output, tree]) => `<script id="${id}" output="${esc(output)}">${tree ?? ''}</script>`).join('')
  const xml = `<?xml version="1.0"?>\n<nmaprun scanner="nmap" start="1700000000">\n<host><status state="up"/><address addr="192.0.2.1" addrtype="ipv4"/><ports><port protocol="tcp" portid="1"><state state="open"/><service name="${service}" method="probed"/>${body}</port></ports></host>\n</nmaprun>\n`
  const { events, problems } = await convertText(nmapXml, xml)
  expect(problems).toEqual([])
  return events[0]!
}

const zgrabModule = async (module: string, result: object): Promise<Event> => {
  const { events, problems } = await convertText(zgrab2, `${JSON.stringify({ ip: '192.0.2.1', data: { [module]: { status: 'success', protocol: module, result } } })}\n`)
  expect(problems).toEqual([])
  return events[0]!
}

const shodanBanner = async (module: string, banner: object): Promise<Event> => {
  const { events, problems } = await convertText(shodan, `${JSON.stringify({ ip_str: '192.0.2.1', port: 1, data: '', _shodan: { module }, ...banner })}\n`)
  expect(problems).toEqual([])
  return events[0]!
}

const objects = (e: Event) => PROTOCOL_NAMES.filter((name) => name in e)

describe('protocol objects: nothing made up', () => {
  it('nmap: an INFO that succeeded says nothing of authentication; a refused one does', async () => {
    const open = await nmapPort('redis', [['redis-info', '\n  Version            7.2.4\n  Role               master']])
    expect(open.redis).toEqual({ version: '7.2.4' })
    const closed = await nmapPort('redis', [['redis-info', 'ERROR: Authentication required']])
    expect(closed.redis).toEqual({ auth_required: true })
  })

  it('nmap: a script whose output holds none of the members gives no object', async () => {
    const e = await nmapPort('memcached', [['memcached-info', '\n  Process ID           1\n  Authentication       no']])
    expect(objects(e)).toEqual([])
    const ldap = await nmapPort('ldap', [['ldap-rootdse', '\nLDAP Results\n  <ROOT>\n      currentTime: 20261121181320.0Z']])
    expect(objects(ldap)).toEqual([])
  })

  it('nmap: scripts named like Object.prototype members are unknown scripts, not a crash', async () => {
    const e = await nmapPort('x', [['__proto__', 'a'], ['constructor', 'b'], ['toString', 'c'], ['hasOwnProperty', 'd']])
    expect(objects(e)).toEqual([])
    expect(e.summary).toContain('|_toString: c')
  })

  it('nmap: vnc-info without its security types leaves noauth absent', async () => {
    const e = await nmapPort('vnc', [['vnc-info', '\n  Protocol version: 3.8', '<elem key="Protocol version">3.8</elem>']])
    expect(e.vnc).toEqual({ version: '3.8' })
  })

  it('nmap: scripts in any order fill one object, members in canonical order', async () => {
    const e = await nmapPort('ssh', [
      ['ssh-auth-methods', 'x', '<table key="Supported authentication methods"><elem>publickey</elem></table>'],
      ['ssh2-enum-algos', 'x', '<table key="mac_algorithms"><elem>hmac-sha2-256</elem></table><table key="kex_algorithms"><elem>curve25519-sha256</elem></table>'],
    ])
    expect(Object.keys(e.ssh)).toEqual(['fingerprint', 'version', 'banner', 'motd', 'kex_algorithms', 'mac_algorithms', 'auth_methods'])
    expect(isStrictValid(e)).toBe(true)
  })

  it('zgrab2: FTP without AUTH TLS asked, PostgreSQL without SSL and Redis without PING leave those members absent', async () => {
    expect((await zgrabModule('ftp', { banner: '220 ready\r\n' })).ftp).toEqual({ banner: '220 ready' })
    const pg = await zgrabModule('postgres', { is_ssl: false, supported_versions: 'FATAL: unsupported frontend protocol 0.0' })
    expect(objects(pg)).toEqual([])
    expect(pg.protocol).toBe('postgresql')
    expect(pg.port).toBe('5432')
    expect((await zgrabModule('redis', { version: '7.2.4' })).redis).toEqual({ version: '7.2.4' })
  })

  it('zgrab2: memcached that answered in binary only gives its event but no object (its all-zero stats are not an answer)', async () => {
    const e = await zgrabModule('memcached', { version: '', libevent_version: '', supports_ascii: false, supports_binary: true, stats: { curr_items: 0, threads: 0 } })
    expect(objects(e)).toEqual([])
    expect([e.protocol, e.port, e.summary]).toEqual(['memcached', '11211', 'memcached\nprotocols: binary'])
  })

  it('zgrab2: AMQP over TLS (--use-tls) fills ssl and the transport', async () => {
    const e = await zgrabModule('amqp091', {
      version_major: 0,
      version_minor: 9,
      server_properties: { product: 'RabbitMQ' },
      tls: { handshake_log: { server_hello: { version: { name: 'TLSv1.3' }, cipher_suite: { name: 'TLS_AES_128_GCM_SHA256' } } } },
    })
    expect([e.protocol, e.port, e.transport, e.ssl.version, e.ssl.enabled]).toEqual(['amqp', '5672', ['tcp', 'tls'], 'TLSv1.3', true])
    expect(e.amqp).toEqual({ protocol_major: 0, protocol_minor: 9, product: 'RabbitMQ' })
  })

  it('zgrab2: redis with credentials sent (auth_response) says nothing of auth_required, whatever INFO answered', async () => {
    const e = await zgrabModule('redis', { ping_response: "(Error: ERR unknown command 'PING')", auth_response: 'OK', info_response: '# Server\r\nredis_version:7.2.4\r\n', version: '7.2.4' })
    expect(e.redis).toEqual({ version: '7.2.4' })
  })

  it('zgrab2: an SMTP STARTTLS answer decides over the EHLO list', async () => {
    const e = await zgrabModule('smtp', { banner: '220 mx\r\n', ehlo: '250-mx\r\n250 STARTTLS\r\n', starttls: '454 4.7.0 TLS not available\r\n' })
    expect(e.smtp).toEqual({ banner: '220 mx', starttls: false, extensions: ['STARTTLS'] })
  })

  it('shodan: FEAT without AUTH TLS is no refusal; VNC without type 1 is not open', async () => {
    const ftp = await shodanBanner('ftp', { data: '220 ready\r\n', ftp: { anonymous: false, features: { MDTM: { parameters: [] } } } })
    expect(ftp.ftp).toEqual({ banner: '220 ready', anonymous: false })
    const vnc = await shodanBanner('vnc', { vnc: { protocol_version: '3.8', security_types: { '2': 'VNC Authentication' } } })
    expect(vnc.vnc).toEqual({ version: '3.8', security_types: ['VNC Authentication (2)'], noauth: false })
  })

  it('shodan: banners of other protocols get no object', async () => {
    const e = await shodanBanner('http', { data: 'HTTP/1.1 200 OK\r\n\r\n', http: { status: 200 } })
    expect(objects(e)).toEqual([])
    expect(Object.keys(e.ssh)).toEqual(['fingerprint', 'version', 'banner', 'motd'])
  })
})

describe('protocol members as --fields', () => {
  it('are fields of csv and human output, empty for events without them', async () => {
    const fields = parseFields(['redis.version', 'redis', 'ssh.auth_methods', 'mongodb.databases'])
    const e = await nmapPort('redis', [['redis-info', '\n  Version            7.2.4']])
    expect(fields.map((f) => fieldText(fieldValue(e, f)))).toEqual(['7.2.4', '{"version":"7.2.4"}', '', ''])
    expect(() => parseFields(['redis.versoin'])).toThrow(/unknown field 'redis\.versoin'.*such as redis\.version/)
  })
})
