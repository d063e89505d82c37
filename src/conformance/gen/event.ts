/**
 * Arbitraries of event documents: strict (canonical, what l9kit writes) and lenient (what
 * real tools emit). Strict documents start from `emptyEvent()`, so member order is canonical.
 */
import fc, { type Arbitrary } from 'fast-check'
import { record } from './record.js'
import { type Event, emptyEvent, SEVERITIES, STAGES } from '../../schema/index.js'
import { cidr, domainName, ipv4, ipv6, macAddress } from './net.js'
import { anyText, fingerprint64, headerMap, hex, summaryText } from './text.js'
import { canonicalTimeText, lenientTimeText } from './time.js'
import { lenientProtocolForms, type ProtocolFrequency, protocolObjects, respellProtocols, sshExtension } from './protocols.js'

/** A fixed value or an arbitrary of it. */
export type Given<T> = T | Arbitrary<T>
const isArbitrary = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { generate?: unknown }).generate === 'function'
const lift = <T>(value: Given<T>): Arbitrary<T> => (isArbitrary(value) ? (value as Arbitrary<T>) : fc.constant(value as T))

export interface EventOptions {
  /** `event_type`; default: mostly `service` or `leak`, sometimes others tools use (`synack`, …). */
  type?: Given<string>
  /** `ip`; default: IPv4, IPv6 or empty. */
  ip?: Given<string>
  /** `host`; default: a domain name or empty. */
  host?: Given<string>
  /**
   * How often protocol objects and the members that extend `ssh` appear: `sometimes` (default,
   * about one event in four each), `always`, or `never` (the specification's members only).
   */
  protocols?: ProtocolFrequency
}

const SOURCES = ['http', 'tcpid', 'elasticsearchopen', 'redisopen', 'l9explore', 'nuclei', 'ip4scout']
const orEmpty = <T>(arb: Arbitrary<T>, empty: T, weight = 3) => fc.oneof({ weight: 1, arbitrary: fc.constant(empty) }, { weight, arbitrary: arb })
const count = (max = 1_000_000) => orEmpty(fc.integer({ min: 0, max }), 0)
const small = <T>(arb: Arbitrary<T>, maxLength = 3) => fc.array(arb, { maxLength })
/** A finite number in range, never `-0` (JSON writes it as `0`, so it would not round-trip). */
const coordinate = (limit: number) => fc.double({ min: -limit, max: limit, noNaN: true }).map((x) => (x === 0 ? 0 : x))

const http = record({
  root: anyText(['/', '/admin', '']),
  url: anyText(['/', '/.env', '/wp-login.php', '/api/v1/status']),
  status: orEmpty(fc.integer({ min: 100, max: 599 }), 0),
  length: count(10_000_000),
  header: orEmpty(headerMap(), {}),
  title: anyText(['Welcome to nginx!', 'Index of /', 'Kibana']),
  favicon_hash: anyText(['-1137078766', '116323821']),
})

const certificate = record({
  cn: anyText(['example.com', '*.example.net', 'localhost']),
  domain: small(domainName()),
  fingerprint: orEmpty(fingerprint64(), ''),
  key_algo: fc.constantFrom('', 'RSA', 'ECDSA', 'Ed25519'),
  key_size: fc.constantFrom(0, 256, 384, 2048, 4096),
  issuer_name: anyText(["Let's Encrypt", 'R3', 'DigiCert']),
  not_before: canonicalTimeText(),
  not_after: canonicalTimeText(),
  valid: fc.boolean(),
})

const ssl = record({
  detected: fc.boolean(),
  enabled: fc.boolean(),
  jarm: orEmpty(hex(62), ''),
  cypher_suite: fc.constantFrom('', 'TLS_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'),
  version: fc.constantFrom('', 'TLSv1.2', 'TLSv1.3'),
  certificate,
})

// The four specified members, then (as often as asked) some of the members that extend them.
const ssh = (protocols: ProtocolFrequency) =>
  fc
    .tuple(
      record({
        fingerprint: anyText(['SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8']),
        version: fc.constantFrom(0, 1, 2),
        banner: anyText(['SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.1']),
        motd: anyText([]),
      }),
      sshExtension(protocols),
    )
    .map(([specified, extension]) => ({ ...specified, ...extension }))

const moduleArb = record({ name: anyText(['mod_ssl']), version: anyText(['2.4.1']), fingerprint: anyText([]) })
const base64 = fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('base64'))

const service = record({
  credentials: record({
    noauth: fc.boolean(),
    username: anyText(['root', 'admin', 'elastic']),
    password: anyText(['changeme', 'admin']),
    key: anyText([]),
    raw: fc.option(base64, { nil: null }),
  }),
  software: record({
    name: anyText(['nginx', 'Elasticsearch', 'Redis']),
    version: anyText(['1.18.0', '7.10.2']),
    os: anyText(['Ubuntu', 'Debian']),
    modules: fc.option(small(moduleArb), { nil: null }),
    fingerprint: anyText(['nginx-1.18.0']),
  }).chain((software) =>
    // The member may be left out (the specification allows it); usually it is written.
    fc.constantFrom(true, true, true, false).map((keep) => {
      if (keep) return software
      const { fingerprint: _omitted, ...rest } = software
      return rest
    }),
  ),
})

const dataset = record({
  rows: count(),
  files: count(),
  size: count(Number.MAX_SAFE_INTEGER),
  collections: count(10_000),
  infected: fc.boolean(),
  ransom_notes: fc.option(small(anyText(['README_TO_RESTORE'])), { nil: null }),
})

const leakOf = (isLeak: boolean) =>
  isLeak
    ? record({
        stage: fc.constantFrom(...STAGES),
        type: fc.constantFrom('configuration', 'database', 'files'),
        severity: fc.constantFrom(...SEVERITIES),
        dataset,
      })
    : record({ stage: fc.constant(''), type: fc.constant(''), severity: fc.constant(''), dataset })

const geoip = record({
  continent_name: anyText(['Europe', 'North America']),
  region_iso_code: anyText(['FR-IDF']),
  city_name: anyText(['Paris', 'Ashburn']),
  country_iso_code: anyText(['FR', 'US']),
  country_name: anyText(['France', 'United States']),
  region_name: anyText(['Île-de-France', 'Virginia']),
  location: record({ lat: coordinate(90), lon: coordinate(180) }),
})

const network = record({
  organization_name: anyText(['Cloudflare, Inc.', 'OVH SAS']),
  asn: orEmpty(fc.integer({ min: 1, max: 4294967295 }), 0),
  network: orEmpty(cidr(), ''),
})

const defaultType = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('service', 'leak') }, { weight: 1, arbitrary: fc.constantFrom('synack', '') })
const defaultIp = fc.oneof({ weight: 3, arbitrary: ipv4() }, { weight: 1, arbitrary: ipv6() }, { weight: 1, arbitrary: fc.constant('') })

/**
 * Event documents that pass the strict profile with no warning: every member present in
 * canonical order, canonical times, 64-hex fingerprints, ports as decimal strings, header
 * maps whose names include `__proto__` and other odd ones. Leak members are filled only
 * for `leak` events. About one in four carries protocol objects (after `network`, each with
 * some of its members) and about one in four some of the members that extend `ssh`
 * (`options.protocols`). Each value is a fresh object.
 */
export function strictEvent(options: EventOptions = {}): Arbitrary<Event> {
  const type = options.type === undefined ? defaultType : lift(options.type)
  return type.chain((eventType) =>
    record({
      event_source: fc.constantFrom(...SOURCES),
      event_pipeline: small(fc.constantFrom(...SOURCES)),
      event_fingerprint: orEmpty(fingerprint64(), '', 6),
      ip: options.ip === undefined ? defaultIp : lift(options.ip),
      host: options.host === undefined ? orEmpty(domainName(), '') : lift(options.host),
      reverse: orEmpty(domainName(), ''),
      port: orEmpty(fc.integer({ min: 0, max: 65535 }).map(String), ''),
      mac: orEmpty(macAddress(), '', 1),
      vendor: anyText(['Cisco Systems', 'Dell Inc.']),
      transport: fc.subarray(['tcp', 'udp', 'tls', 'http']),
      protocol: fc.constantFrom('', 'http', 'https', 'ssh', 'redis', 'elasticsearch'),
      http,
      summary: summaryText(),
      time: canonicalTimeText(),
      ssl,
      ssh: ssh(options.protocols ?? 'sometimes'),
      service,
      leak: leakOf(eventType === 'leak'),
      tags: small(fc.constantFrom('honeypot', 'cdn', 'misconfig', 'ransomed')),
      geoip,
      network,
      protocols: protocolObjects(options.protocols),
    }).map(({ protocols, ...parts }) => Object.assign(emptyEvent(), { event_type: eventType }, parts, protocols) as Event),
  )
}

/** JSON copy that keeps `__proto__` members as data (JSON.parse defines them as own members). */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T

type Json = Record<string, unknown>
const at = (doc: Json, path: string[]): Json | undefined => {
  let node: unknown = doc
  for (const key of path) node = node && typeof node === 'object' ? (node as Json)[key] : undefined
  return node && typeof node === 'object' && !Array.isArray(node) ? (node as Json) : undefined
}

/** Members that may be left out of a lenient document, as paths. */
const OPTIONAL_MEMBERS = [
  ['event_pipeline'],
  ['event_fingerprint'],
  ['reverse'],
  ['mac'],
  ['vendor'],
  ['tags'],
  ['summary'],
  ['http', 'favicon_hash'],
  ['http', 'header'],
  ['ssl', 'jarm'],
  ['ssl', 'certificate'],
  ['ssh'],
  ['service', 'software', 'fingerprint'],
  ['service', 'credentials', 'raw'],
  ['leak', 'dataset'],
  ['geoip'],
  ['network', 'network'],
]
const NULLABLE = [['event_pipeline'], ['transport'], ['tags'], ['http', 'header'], ['ssl', 'certificate', 'domain']]

const setIn = (doc: Json, path: string[], f: (value: unknown) => unknown) => {
  const parent = at(doc, path.slice(0, -1))
  const key = path[path.length - 1]!
  if (parent && key in parent) parent[key] = f(parent[key])
}
const deleteIn = (doc: Json, path: string[]) => {
  const parent = at(doc, path.slice(0, -1))
  if (parent) delete parent[path[path.length - 1]!]
}

/**
 * Documents as real tools emit them, which pass the lenient profile: members left out,
 * `null` arrays and maps, numeric ports, `asn`/`status`/`length` as strings, `lat`/`lon`
 * as strings (the Python port), any time offset, nanoseconds, upper-case fingerprints; in
 * the protocol objects, yes/no answers as text or 0/1, integers as text, `null` for absent.
 */
export function lenientEvent(options: EventOptions = {}): Arbitrary<Record<string, unknown>> {
  return record({
    doc: strictEvent(options),
    missing: fc.subarray(OPTIONAL_MEMBERS, { maxLength: 4 }),
    nulls: fc.subarray(NULLABLE),
    portForm: fc.constantFrom('keep', 'number', 'padded'),
    numbersAsText: fc.subarray([
      ['network', 'asn'],
      ['http', 'status'],
      ['http', 'length'],
      ['geoip', 'location', 'lat'],
      ['geoip', 'location', 'lon'],
    ]),
    times: record({ time: lenientTimeText(), not_before: lenientTimeText(), not_after: lenientTimeText() }),
    upperFingerprint: fc.boolean(),
    protocolForms: lenientProtocolForms(),
  }).map((r) => {
    const doc = copy(r.doc) as unknown as Json
    doc.time = r.times.time
    setIn(doc, ['ssl', 'certificate', 'not_before'], () => r.times.not_before)
    setIn(doc, ['ssl', 'certificate', 'not_after'], () => r.times.not_after)
    if (r.upperFingerprint) doc.event_fingerprint = String(doc.event_fingerprint).toUpperCase()
    const port = String(doc.port)
    if (port !== '' && r.portForm === 'number') doc.port = Number(port)
    if (port !== '' && r.portForm === 'padded') doc.port = `0${port}`
    for (const path of r.numbersAsText) setIn(doc, path, (value) => String(value))
    for (const path of r.nulls) setIn(doc, path, () => null)
    for (const path of r.missing) deleteIn(doc, path)
    respellProtocols(doc, r.protocolForms)
    return doc
  })
}
