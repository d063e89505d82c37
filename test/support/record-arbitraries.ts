/**
 * Records of each JSON format, generated from the facts of each tool's output
 * (spec/tool-formats.md), for the property tests of `--from auto` (test/convert/auto-*.test.ts).
 */
import fc from 'fast-check'
import { emptyEvent } from '../../src/schema/index.js'
import { hostName, ip, ipv4, port } from './net-arbitraries.js'

const when = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString())
const zoneless = when.map((t) => t.replace('Z', '').replace(/\.(\d{3})$/, '.$1000'))
const scheme = fc.constantFrom('http', 'https')

/** Record generators by format name. */
export const RECORDS: Record<string, fc.Arbitrary<object>> = {
  naabu: fc.record({ host: hostName, ip, port, protocol: fc.constantFrom('tcp', 'udp'), tls: fc.boolean(), timestamp: when }),
  httpx: fc.record({ host: hostName, ip: ipv4, port, scheme, status: fc.constantFrom(200, 301, 404), timestamp: when }).map((r) => ({
    timestamp: r.timestamp,
    port: String(r.port),
    url: `${r.scheme}://${r.host}:${r.port}`,
    input: r.host,
    title: 'Example',
    scheme: r.scheme,
    webserver: 'nginx/1.24.0',
    host: r.host,
    host_ip: r.ip,
    path: '/',
    status_code: r.status,
    content_length: 10,
  })),
  tlsx: fc.record({ host: hostName, ip: ipv4, port, timestamp: when }).map((r) => ({
    timestamp: r.timestamp,
    host: r.host,
    ip: r.ip,
    port: String(r.port),
    probe_status: true,
    tls_version: 'tls13',
    cipher: 'TLS_AES_256_GCM_SHA384',
    subject_cn: r.host,
    subject_an: [r.host],
  })),
  subfinder: fc.record({ host: hostName, source: fc.constantFrom('crtsh', 'virustotal', 'chaos') }).map((r) => ({ host: r.host, input: r.host.split('.').slice(1).join('.'), source: r.source })),
  dnsx: fc.record({ host: hostName, a: ipv4, timestamp: when }).map((r) => ({ host: r.host, ttl: 60, resolver: ['1.1.1.1:53'], a: [r.a], status_code: 'NOERROR', timestamp: r.timestamp })),
  sx: fc.record({ scan: fc.constantFrom('tcpsyn', 'tcpfin', 'udp'), ip, port }),
  nuclei: fc.record({ host: hostName, ip: ipv4, id: fc.constantFrom('git-config', 'tech-detect'), timestamp: when }).map((r) => ({
    'template-id': r.id,
    info: { name: r.id, severity: 'info', tags: ['exposure'] },
    type: 'http',
    host: r.host,
    port: '443',
    scheme: 'https',
    url: `https://${r.host}:443`,
    'matched-at': `https://${r.host}:443/x`,
    ip: r.ip,
    timestamp: r.timestamp,
  })),
  katana: fc.record({ host: hostName, path: fc.constantFrom('/', '/login', '/api?x=1'), timestamp: when }).map((r) => ({
    timestamp: r.timestamp,
    request: { method: 'GET', endpoint: `https://${r.host}${r.path}` },
    response: { status_code: 200, headers: { server: 'nginx' } },
  })),
  shodan: fc.record({ ip: ipv4, port, timestamp: zoneless }).map((r) => ({
    ip_str: r.ip,
    port: r.port,
    transport: 'tcp',
    timestamp: r.timestamp,
    hostnames: [],
    org: 'Example',
    asn: 'AS64500',
    data: 'SSH-2.0-OpenSSH_8.9p1 Ubuntu-3\r\n',
    _shodan: { module: 'ssh' },
  })),
  censys: fc.record({ ip: ipv4, port, timestamp: when }).map((r) => ({
    ip: r.ip,
    services: [{ port: r.port, service_name: 'SSH', extended_service_name: 'SSH', transport_protocol: 'TCP', observed_at: r.timestamp, banner: 'SSH-2.0-OpenSSH_9.0' }],
    last_updated_at: r.timestamp,
  })),
  zgrab2: fc.record({ ip: ipv4, timestamp: when }).map((r) => ({
    ip: r.ip,
    data: { ssh: { status: 'success', protocol: 'ssh', result: { server_id: { raw: 'SSH-2.0-OpenSSH_8.9p1', version: '2.0', software: 'OpenSSH_8.9p1' } }, timestamp: r.timestamp } },
  })),
  'masscan-ndjson': fc.record({ ip: ipv4, port, seconds: fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }) }).map((r) => ({
    ip: r.ip,
    timestamp: String(r.seconds),
    port: r.port,
    proto: 'tcp',
    rec_type: 'status',
    data: { status: 'open', reason: 'syn-ack', ttl: 54 },
  })),
  zmap: fc.record({ saddr: ipv4, sport: port }).map((r) => ({ saddr: r.saddr, sport: String(r.sport), classification: 'synack', success: 1 })),
  l9: fc.record({ ip, port, time: when }).map((r) => ({ ...emptyEvent(), event_type: 'service', event_source: 'fixture', ip: r.ip, port: String(r.port), time: r.time.replace('.000Z', 'Z') })),
}

