/**
 * Realistic event documents for benchmarks: service and leak events of a few kinds, with
 * headers, certificates and summaries of typical size (~1.5–3 KB), deterministic by index.
 */
import { emptyEvent, type Event } from '../../src/schema/index.js'

const SERVERS = ['nginx/1.24.0', 'Apache/2.4.58 (Debian)', 'Microsoft-IIS/10.0', 'cloudflare', 'openresty']
const TITLES = ['Welcome to nginx!', 'Index of /', 'Kibana', 'Grafana', 'Login', 'phpMyAdmin', '']
const LEAKS = ['open_database', 'configuration', 'lfi', 'rce', 'directory_listing']
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info']

const hex = (n: number, len: number) => {
  let out = ''
  let x = (n * 2654435761) >>> 0
  while (out.length < len) {
    x = (x * 1103515245 + 12345) >>> 0
    out += x.toString(16).padStart(8, '0')
  }
  return out.slice(0, len)
}

/** The i-th benchmark event (canonical, strict-valid). */
export function benchEvent(i: number): Event {
  const e = emptyEvent()
  const leak = i % 5 === 0
  const v6 = i % 7 === 0
  const domain = `example${i % 997}.com`
  e.event_type = leak ? 'leak' : 'service'
  e.event_source = leak ? 'ElasticSearchOpenPlugin' : 'tcpid'
  e.event_pipeline = leak ? ['l9tcpid', 'ip4scout', 'l9explore', 'ElasticSearchOpenPlugin'] : ['ip4scout', 'tcpid']
  e.event_fingerprint = hex(i, 64)
  e.ip = v6 ? `2001:db8:${(i % 65535).toString(16)}::${(i % 4096).toString(16)}` : `198.51.${(i >> 8) & 255}.${i & 255}`
  e.host = i % 3 === 0 ? '' : `${['www', 'api', 'mail', 'dev'][i % 4]}.${domain}`
  e.port = String([80, 443, 8080, 9200, 22][i % 5])
  e.transport = i % 2 ? ['tcp', 'tls', 'http'] : ['tcp', 'http']
  e.protocol = i % 2 ? 'https' : 'http'
  const server = SERVERS[i % SERVERS.length]!
  e.http.status = [200, 301, 403, 404, 500][i % 5]!
  e.http.length = 100 + (i % 5000)
  e.http.title = TITLES[i % TITLES.length]!
  // Names in byte order: canonical (docs/normalize.md), so JSON.stringify of it is canonical text.
  e.http.header = {
    'cache-control': 'no-cache',
    'content-type': 'text/html; charset=utf-8',
    date: 'Tue, 19 Nov 2024 10:00:00 GMT',
    server,
    'x-frame-options': 'SAMEORIGIN',
  }
  e.summary = `HTTP/1.1 ${e.http.status} OK\r\nServer: ${server}\r\nContent-Type: text/html\r\n\r\n<html><head><title>${e.http.title}</title></head><body>${'lorem ipsum dolor sit amet '.repeat(20 + (i % 30))}</body></html>`
  e.time = `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:07.${String(1 + (i % 999999999)).padStart(9, '0').replace(/0+$/, '')}Z`
  if (i % 2) {
    e.ssl.detected = true
    e.ssl.enabled = true
    e.ssl.jarm = hex(i + 1, 62)
    e.ssl.cypher_suite = 'TLS_AES_128_GCM_SHA256'
    e.ssl.version = 'TLSv1.3'
    e.ssl.certificate = {
      cn: e.host || domain,
      domain: [domain, `*.${domain}`],
      fingerprint: hex(i + 2, 64),
      key_algo: 'RSA',
      key_size: 2048,
      issuer_name: "Let's Encrypt R3",
      not_before: '2024-01-01T00:00:00Z',
      not_after: '2024-04-01T00:00:00Z',
      valid: true,
    }
  }
  e.service.software = { name: server.split('/')[0]!, version: server.split('/')[1] ?? '', os: '', modules: null, fingerprint: '' }
  if (leak) {
    e.leak = {
      stage: 'open',
      type: LEAKS[i % LEAKS.length]!,
      severity: SEVERITIES[i % SEVERITIES.length]!,
      dataset: { rows: i * 13, files: 0, size: i * 1024, collections: 1 + (i % 40), infected: i % 10 === 0, ransom_notes: i % 10 === 0 ? ['README_TO_RECOVER'] : null },
    }
  }
  e.tags = i % 4 === 0 ? ['cloud', 'cdn'] : []
  e.geoip = {
    continent_name: 'Europe',
    region_iso_code: 'FR-IDF',
    city_name: 'Paris',
    country_iso_code: 'FR',
    country_name: 'France',
    region_name: 'Île-de-France',
    location: { lat: 48.8566, lon: 2.3522 },
  }
  e.network = { organization_name: 'Example Hosting SAS', asn: 64496 + (i % 15), network: '198.51.100.0/24' }
  return e
}

/** `count` benchmark events as JSON Lines strings (without newlines). */
export function benchLines(count: number): string[] {
  const lines: string[] = new Array(count)
  for (let i = 0; i < count; i++) lines[i] = JSON.stringify(benchEvent(i))
  return lines
}
