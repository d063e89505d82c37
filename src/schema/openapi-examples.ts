/**
 * Example bodies of the OpenAPI document. Typed by the TypeBox `Static<>` types, so the compiler
 * holds them to the shapes, and test/schema/openapi.test.ts validates each against its schema.
 */
import type { Aggregation } from './aggregation.js'
import type { LookupResult, SubdomainEntry } from './api.js'
import { emptyEvent } from './empty.js'
import type { Event } from './event.js'
import type { CreatedHook, Delivery, Hook, HookRequest, Resource, ResourceRequest, RetryResult } from './hooks.js'
import type { IngestAnswer } from './ingest.js'
import { exampleProtocols, exampleSshExtension } from './protocol-examples.js'
import type { Plugin, PluginStats } from './plugins.js'

/** A service event as a lookup returns it. */
export function exampleServiceEvent(): Event {
  const event = emptyEvent()
  event.event_type = 'service'
  event.event_source = 'httpx'
  event.event_pipeline = ['httpx']
  event.event_fingerprint = '5d41402abc4b2a76b9719d911017c592aa1f1e4c3b3a8c1b2d0f3e6c7b8a9d0e'
  event.ip = '192.0.2.10'
  event.host = 'www.example.com'
  event.port = '443'
  event.transport = ['tcp', 'tls', 'http']
  event.protocol = 'https'
  event.http = { ...event.http, url: '/', status: 200, length: 612, header: { Server: 'nginx/1.24.0' }, title: 'Welcome' }
  event.summary = 'HTTP/1.1 200 OK\nServer: nginx/1.24.0\n\nWelcome'
  event.time = '2026-01-02T03:04:05.123456789Z'
  event.ssl = { ...event.ssl, detected: true, enabled: true, version: 'TLSv1.3', cypher_suite: 'TLS_AES_128_GCM_SHA256' }
  event.ssl.certificate = {
    cn: 'www.example.com',
    domain: ['www.example.com', 'example.com'],
    fingerprint: '3f1c0a5e8b2d4c6e9f7a1b3d5c7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e',
    key_algo: 'ECDSA',
    key_size: 256,
    issuer_name: 'Example CA R3',
    not_before: '2025-11-01T00:00:00Z',
    not_after: '2026-01-30T23:59:59Z',
    valid: true,
  }
  event.service.software = {
    name: 'nginx',
    version: '1.24.0',
    os: 'Ubuntu',
    modules: [{ name: 'http_ssl_module', version: '1.24.0', fingerprint: 'nginx-http_ssl_module-1.24.0' }],
    fingerprint: 'nginx-1.24.0',
  }
  event.geoip = {
    continent_name: 'Europe',
    region_iso_code: 'NL-NH',
    city_name: 'Amsterdam',
    country_iso_code: 'NL',
    country_name: 'Netherlands',
    region_name: 'North Holland',
    location: { lat: 52.3740, lon: 4.8897 },
  }
  event.network = { organization_name: 'Example Hosting', asn: 64500, network: '192.0.2.0/24' }
  return event
}

/** A leak event, as ingested and as an alert hook receives it. */
export function exampleLeakEvent(): Event {
  const event = exampleServiceEvent()
  event.event_type = 'leak'
  event.event_source = 'DotEnvConfigPlugin'
  event.event_pipeline = ['httpx', 'DotEnvConfigPlugin']
  event.event_fingerprint = '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae'
  event.http = { ...event.http, url: '/.env', title: '' }
  event.summary = 'DB_PASSWORD=… found in /.env'
  event.leak = {
    stage: 'open',
    type: 'configuration',
    severity: 'high',
    dataset: { rows: 0, files: 1, size: 1024, collections: 0, infected: false, ransom_notes: null },
  }
  event.service.credentials = { noauth: false, username: 'app', password: 'hunter2', key: '', raw: null }
  event.tags = ['dotenv']
  return event
}

/**
 * An aggregation of two leaks on one address, as the bulk export writes it (made the way
 * src/service/aggregate/aggregate.ts makes one; a test holds the two to each other).
 */
export function exampleAggregation(): Aggregation {
  const dotenv = exampleLeakEvent()
  const git = exampleLeakEvent()
  git.event_source = 'GitConfigHttpPlugin'
  git.event_pipeline = ['httpx', 'GitConfigHttpPlugin']
  git.event_fingerprint = 'fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9'
  git.http = { ...git.http, url: '/.git/config' }
  git.summary = '[remote "origin"] url = https://git.example.com/shop.git found in /.git/config'
  git.time = '2026-01-03T10:00:00Z'
  git.leak = { ...git.leak, severity: 'medium' }
  git.service.credentials = { noauth: false, username: '', password: '', key: '', raw: null }
  git.tags = ['git']
  return {
    summary: git.summary,
    ip: '192.0.2.10',
    resource_id: '192.0.2.10',
    open_ports: ['443'],
    leak_count: 2,
    leak_event_count: 2,
    events: [git, dotenv],
    plugins: ['DotEnvConfigPlugin', 'GitConfigHttpPlugin'],
    geoip: git.geoip,
    network: git.network,
    creation_date: dotenv.time,
    update_date: git.time,
    fresh: true,
  }
}

/** An SSH service event, with the members that extend `ssh`. */
export function exampleSshEvent(): Event {
  const event = emptyEvent()
  event.event_type = 'service'
  event.event_source = 'ssh'
  event.event_pipeline = ['ssh']
  event.ip = '2001:db8::22'
  event.port = '22'
  event.transport = ['tcp']
  event.protocol = 'ssh'
  event.time = '2026-01-02T03:04:06Z'
  event.ssh = { fingerprint: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8', version: 2, banner: 'SSH-2.0-OpenSSH_9.6', motd: '', ...exampleSshExtension() }
  return event
}

/** One example value per named part of the event (the `$defs` of schema/event.schema.json), for docs/format.md. */
export function examplePartValues(): Record<string, unknown> {
  const service = exampleServiceEvent()
  const leak = exampleLeakEvent()
  return {
    http: service.http,
    ssl: service.ssl,
    certificate: service.ssl.certificate,
    ssh: exampleSshEvent().ssh,
    service: leak.service,
    credentials: leak.service.credentials,
    software: service.service.software,
    module: service.service.software.modules![0],
    leak: leak.leak,
    dataset: leak.leak.dataset,
    geoip: service.geoip,
    location: service.geoip.location,
    network: service.network,
    ...exampleProtocols(),
  }
}

export const EXAMPLES = {
  lookup: (): LookupResult => ({ Services: [exampleServiceEvent()], Leaks: [exampleLeakEvent()] }),
  lookupEmpty: (): LookupResult => ({ Services: null, Leaks: null }),
  // Agrees with `lookup` (a mock serves both: docs/conformance.md, Stateless servers): the
  // subdomain of its events, their one address, the newest event time to the millisecond.
  subdomains: (): SubdomainEntry[] => [{ subdomain: 'www.example.com', distinct_ips: 1, last_seen: '2026-01-02T03:04:05.123Z' }],
  ingest: (): IngestAnswer => ({
    accepted: 1,
    duplicates: 0,
    rejected: [{ line: 2, errors: [{ code: 'missing_member', pointer: '/ip', message: 'The member ip is missing.' }] }],
  }),
  resourceRequest: (): ResourceRequest => ({ type: 'domain', value: 'example.com' }),
  resource: (): Resource => ({ id: 'res_3kTMd92jx0', type: 'domain', value: 'example.com' }),
  hookRequest: (): HookRequest => ({ url: 'https://alerts.example.net/l9', min_severity: 'medium', event_types: ['leak'] }),
  hook: (): Hook => ({
    id: 'hook_7pQx2LmA',
    url: 'https://alerts.example.net/l9',
    min_severity: 'medium',
    event_types: ['leak'],
    state: 'active',
    disabled_at: null,
    disabled_reason: null,
  }),
  createdHook: (): CreatedHook => ({ ...EXAMPLES.hook(), secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
  delivery: (): Delivery => ({
    id: 'msg_2Lq8Vx0bRt',
    hook_id: 'hook_7pQx2LmA',
    event_fingerprint: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
    status: 'failed',
    attempts: 5,
    last_status: 503,
    last_error: 'answered 503',
    created_at: '2026-01-02T03:04:06.001Z',
    updated_at: '2026-01-02T03:09:41.230Z',
    next_attempt_at: null,
  }),
  retry: (): RetryResult => ({ queued: 3 }),
  plugins: (): PluginStats[] => [
    { name: 'DotEnvConfigPlugin', description: 'Environment files (.env) served over HTTP.', event_count1h: 2, event_count24h: 31, event_count7d: 204 },
    { name: 'httpx', description: 'Events reported by the httpx plugin.', event_count1h: 0, event_count24h: 12, event_count7d: 12 },
  ],
  plugin: (): Plugin => ({ name: 'DotEnvConfigPlugin', description: 'Environment files (.env) served over HTTP.' }),
}
