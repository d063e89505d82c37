/**
 * Known events for the web view's tests and screenshots: one host (198.51.100.7) with five
 * findings of every kind of severity, observed more than once in shuffled order so first seen,
 * last seen and days open are known, and a domain (web.test) with names on several hosts.
 */
import type { Event } from '../../../src/schema/index.js'
import { makeEvent } from '../support.js'

export const HOST = '198.51.100.7'
export const DOMAIN = 'web.test'
/** What a `<script>` or an event handler in a summary would set if it ever ran. */
export const XSS_SUMMARY = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"> "quoted" & 'single'`

const place = {
  network: { organization_name: 'Example Net B.V.', asn: 64500, network: '198.51.100.0/24' },
  geoip: {
    continent_name: 'Europe',
    region_iso_code: 'NH',
    city_name: 'Amsterdam',
    country_iso_code: 'NL',
    country_name: 'Netherlands',
    region_name: 'North Holland',
    location: { lat: 52.37, lon: 4.89 },
  },
  reverse: 'mail.web.test',
}

function leak(fields: { source: string; port: string; protocol: string; severity: string; stage?: string; type: string; summary: string; fingerprint: string; host?: string }): Event {
  const e = makeEvent({
    event_type: 'leak',
    event_source: fields.source,
    event_fingerprint: fields.fingerprint.repeat(64),
    ip: HOST,
    host: fields.host ?? 'www.web.test',
    port: fields.port,
    protocol: fields.protocol,
    summary: fields.summary,
    ...place,
  })
  e.leak = { ...e.leak, severity: fields.severity, stage: fields.stage ?? 'open', type: fields.type }
  return e
}

/** Each finding with its observation times (given out of order) and what the page must show. */
export const FINDINGS = [
  {
    event: leak({ source: 'ElasticsearchOpenPlugin', port: '9200', protocol: 'http', severity: 'critical', type: 'open_database', summary: 'Elasticsearch 7.17 open: 14 indices, 2.1 GB', fingerprint: 'a' }),
    times: ['2024-01-05T00:00:00Z', '2024-01-11T12:00:00Z', '2024-01-01T00:00:00Z'],
    first: '2024-01-01T00:00:00Z',
    last: '2024-01-11T12:00:00Z',
    days: 10,
  },
  {
    event: leak({ source: 'GitConfigPlugin', port: '443', protocol: 'https', severity: 'high', type: 'exposed_file', summary: XSS_SUMMARY, fingerprint: 'b' }),
    times: ['2024-03-03T03:03:03.5Z'],
    first: '2024-03-03T03:03:03.5Z',
    last: '2024-03-03T03:03:03.5Z',
    days: 0,
  },
  {
    event: leak({ source: 'DotEnvPlugin', port: '80', protocol: 'http', severity: 'low', type: 'exposed_file', summary: '/.env readable: APP_KEY, DB_PASSWORD', fingerprint: 'c' }),
    times: ['2024-03-02T00:00:00Z', '2024-02-01T00:00:00Z'],
    first: '2024-02-01T00:00:00Z',
    last: '2024-03-02T00:00:00Z',
    days: 30,
  },
  {
    event: leak({ source: 'MongoOpenPlugin', port: '27017', protocol: 'mongodb', severity: 'medium', stage: 'explore', type: 'open_database', summary: 'MongoDB 4.4 without authentication', fingerprint: 'd' }),
    times: ['2024-01-01T00:00:00Z', '2023-12-25T00:00:00Z', '2023-12-31T23:00:00Z'],
    first: '2023-12-25T00:00:00Z',
    last: '2024-01-01T00:00:00Z',
    days: 7,
  },
  {
    event: leak({ source: 'BannerPlugin', port: '8080', protocol: 'http', severity: '', type: 'banner', summary: 'Debug banner left on', fingerprint: 'e', host: 'api.web.test' }),
    times: ['2024-02-10T10:00:00Z', '2024-02-11T09:59:59Z'],
    first: '2024-02-10T10:00:00Z',
    last: '2024-02-11T09:59:59Z',
    days: 0,
  },
] as const

/** `tls`: version, certificate CN, not after, issuer, not before. */
function service(fields: { host: string; ip: string; port: string; protocol: string; software: [string, string]; title?: string; tls?: [string, string, string, string, string]; time: string }): Event {
  const e = makeEvent({ event_source: 'HttpPlugin', ip: fields.ip, host: fields.host, port: fields.port, protocol: fields.protocol, time: fields.time, ...place })
  e.service.software = { ...e.service.software, name: fields.software[0], version: fields.software[1] }
  e.http = { ...e.http, title: fields.title ?? '' }
  if (fields.tls) {
    e.ssl = { ...e.ssl, detected: true, enabled: true, version: fields.tls[0] }
    e.ssl.certificate = { ...e.ssl.certificate, cn: fields.tls[1], not_after: fields.tls[2], issuer_name: fields.tls[3], not_before: fields.tls[4] }
  }
  return e
}

export const SERVICES: Event[] = [
  service({ host: 'www.web.test', ip: HOST, port: '443', protocol: 'https', software: ['nginx', '1.25.3'], title: 'Web Test <b>Home</b>', tls: ['TLSv1.3', 'www.web.test', '2025-06-30T23:59:59Z', 'R11', '2024-01-01T00:00:00Z'], time: '2024-03-01T08:00:00Z' }),
  service({ host: 'www.web.test', ip: HOST, port: '22', protocol: 'ssh', software: ['OpenSSH', '9.2p1'], time: '2024-03-01T08:05:00Z' }),
  // Self-signed (issued by its own name), valid when seen; and the same name's certificate expired when seen.
  service({ host: 'api.web.test', ip: '198.51.100.8', port: '443', protocol: 'https', software: ['Caddy', '2.7.6'], title: 'API', tls: ['TLSv1.3', 'api.web.test', '2025-01-31T00:00:00Z', 'api.web.test', '2024-01-31T00:00:00Z'], time: '2024-02-20T12:00:00Z' }),
  service({ host: 'api.web.test', ip: '2001:db8::8', port: '443', protocol: 'https', software: ['Caddy', '2.7.6'], title: 'API', tls: ['TLSv1.3', 'api.web.test', '2024-02-01T00:00:00Z', 'Example Issuing CA 2', '2023-11-01T00:00:00Z'], time: '2024-02-21T12:00:00Z' }),
  service({ host: 'deep.api.web.test', ip: '198.51.100.9', port: '8443', protocol: 'https', software: ['Jetty', '10.0.18'], title: 'Internal', time: '2024-01-15T12:00:00Z' }),
  service({ host: 'notweb.test', ip: '198.51.100.10', port: '80', protocol: 'http', software: ['nginx', '1.18.0'], time: '2024-01-15T12:00:00Z' }),
]

// Protocol objects (src/schema/protocols.ts), drawn as small labelled tables on the host page:
// the SSH service's algorithm lists (the `ssh` extension), and what the open MongoDB showed.
SERVICES[1]!.ssh = {
  ...SERVICES[1]!.ssh,
  banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3',
  version: 2,
  key_type: 'ssh-ed25519',
  kex_algorithms: ['curve25519-sha256', 'sntrup761x25519-sha512@openssh.com'],
  host_key_algorithms: ['ssh-ed25519', 'rsa-sha2-512'],
  auth_methods: ['publickey', 'password'],
}
FINDINGS[3].event.mongodb = { version: '4.4.29', databases: ['admin', 'customers', 'local'], auth_required: false, wire_version: 9 }

/** Every observation, in the order they are ingested. */
export function fixtureDocs(): Event[] {
  const docs: Event[] = []
  for (const f of FINDINGS) for (const time of f.times) docs.push({ ...f.event, time })
  docs.push(...SERVICES)
  return docs
}

/** Events seen in the last hours (times relative to `now`), for the index page's most-seen plugins. */
export function recentDocs(now: number): Event[] {
  const at = (hoursAgo: number) => new Date(now - hoursAgo * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const docs: Event[] = []
  const plugins: [string, number][] = [
    ['GitConfigHttpPlugin', 5],
    ['DotEnvPlugin', 3],
    ['ElasticsearchOpenPlugin', 2],
  ]
  let n = 0
  for (const [source, count] of plugins) {
    for (let i = 0; i < count; i++, n++) {
      const e = makeEvent({ event_type: 'leak', event_source: source, event_fingerprint: n.toString(16).padStart(64, '0'), ip: `203.0.113.${n + 1}`, host: `site${n}.recent.test`, port: '443', protocol: 'https', time: at(n % 2 === 0 ? 0.2 : 30), summary: `${source} finding ${n}` })
      e.leak = { ...e.leak, severity: ['critical', 'high', 'medium'][n % 3]!, stage: 'open', type: 'exposed_file' }
      docs.push(e)
    }
  }
  return docs
}

/** A domain whose events have the longest values real tools write, for the page-width test (its own store). */
export const LONG_DOMAIN = 'long.test'

/** Findings and services of long.test: full IPv6 addresses, long plugin names, types, protocols, summaries and host names. */
export function longValueDocs(): Event[] {
  const ip = '2001:db8:1234:5678:9abc:def0:1234:5678'
  const host = 'customer-portal-staging-eu-west-1.internal-services.long.test'
  const finding = (i: number, source: string, type: string, port: string, protocol: string) => {
    const e = makeEvent({
      event_type: 'leak',
      event_source: source,
      event_fingerprint: String(i).repeat(64),
      ip,
      host,
      port,
      protocol,
      time: `2024-0${1 + (i % 9)}-1${i % 10}T12:34:56.123456789Z`,
      summary: `HTTP/1.1 200 OK\r\nServer: Apache/2.4.58 (Debian)\r\nX-Powered-By: PHP/8.2.7\r\n\r\n${'<title>Index of /var/www/backups/2024/database-dumps</title> '.repeat(4)}`,
      ...place,
    })
    e.leak = { ...e.leak, severity: ['critical', 'high', 'medium', 'low', 'info'][i % 5]!, stage: 'explore', type }
    return e
  }
  return [
    finding(1, 'ElasticSearchOpenIndexPlugin', 'open_database_without_authentication', '9200', 'elasticsearch'),
    finding(2, 'SpringBootActuatorHttpPlugin', 'exposed_configuration_endpoint', '8080', 'http'),
    finding(3, 'ConfluenceVersionIssuePlugin', 'vulnerable_software_version', '8090', 'https'),
    finding(4, 'MongoOpenDatabasePlugin', 'open_database', '27017', 'mongodb'),
    { ...service({ host, ip, port: '65535', protocol: 'postgresql', software: ['PostgreSQL Database Server', '15.5 (Debian 15.5-0+deb12u1)'], time: '2024-02-02T02:02:02.5Z' }) },
  ]
}
