/**
 * The event document, defined once. Member order is the specification's table order,
 * which is also the order normalised output is written in.
 */
import Type, { type Static } from 'typebox'
import { base64, fingerprint, flag, int, nullable, num, port, stringMap, text, texts, time } from './fields.js'
import { PROTOCOL_MEMBERS, SSH_EXTENSION } from './protocols.js'

export const Http = Type.Object(
  {
    root: text('Root', 'Path root of the finding; empty when none.'),
    url: text('URL path', 'Path of the finding; empty when none.'),
    status: int('Status', 'HTTP status code; 0 when unset.', 0, 999),
    length: int('Length', 'Body length in bytes; 0 when unset.'),
    header: stringMap('Headers', 'Header name to value. Name case is kept as the producer wrote it.'),
    title: text('Title', 'Page title.'),
    favicon_hash: text('Favicon hash', 'Hash of the favicon; may be empty.'),
  },
  { title: 'HTTP', description: 'What an HTTP exchange with the service showed.' },
)

export const Certificate = Type.Object(
  {
    cn: text('Common name', 'Subject common name.'),
    domain: texts('Domains', 'Names the certificate covers.'),
    fingerprint: fingerprint('Fingerprint', 'SHA-256 of the DER certificate, 64 lower-case hex; empty when unknown.'),
    key_algo: text('Key algorithm', 'Public key algorithm, for example `RSA` or `ECDSA`.'),
    key_size: int('Key size', 'Public key size in bits.'),
    issuer_name: text('Issuer', 'Issuer common name.'),
    not_before: time('Not before', 'Start of validity, canonical UTC time.'),
    not_after: time('Not after', 'End of validity, canonical UTC time.'),
    valid: flag('Valid', 'Whether the certificate matched the host name.'),
  },
  { title: 'Certificate', description: 'The server certificate seen during the TLS handshake.' },
)

export const Ssl = Type.Object(
  {
    detected: flag('Detected', 'TLS was detected on the port.'),
    enabled: flag('Enabled', 'TLS is enabled on the port.'),
    jarm: text('JARM', 'JARM TLS fingerprint, hexadecimal text.'),
    cypher_suite: text('Cipher suite', 'Negotiated cipher suite name, for example `TLS_AES_128_GCM_SHA256`.'),
    version: text('Version', 'Negotiated protocol version, for example `TLSv1.3`.'),
    certificate: Certificate,
  },
  { title: 'SSL', description: 'TLS layer of the service.' },
)

export const Ssh = Type.Object(
  {
    fingerprint: text('Fingerprint', 'Host key fingerprint: `SHA256:<base64 without padding>` of the key blob, as OpenSSH prints it, or `MD5:<lower-case hex with colons>` when only that is known.'),
    version: int('Version', 'SSH protocol major version.'),
    banner: text('Banner', 'Identification string sent by the server.'),
    motd: text('Message of the day', 'Text shown after login, if any.'),
    ...SSH_EXTENSION,
  },
  { title: 'SSH', description: 'SSH layer of the service. The members after `motd` (the format owner\'s extension) may be left out.' },
)

export const Credentials = Type.Object(
  {
    noauth: flag('No authentication', 'The service grants access without credentials.'),
    username: text('User name', 'User name that worked.'),
    password: text('Password', 'Password that worked.'),
    key: text('Key', 'Key or token that worked.'),
    raw: nullable(base64('Raw', ''), 'Raw', 'Raw credential bytes as standard base64 text (RFC 4648, padded; what Go decodes into `[]byte`); null when none.'),
  },
  { title: 'Credentials', description: 'Credentials the service accepted.' },
)

export const Module = Type.Object(
  {
    name: text('Name', 'Module name.'),
    version: text('Version', 'Module version.'),
    fingerprint: text('Fingerprint', 'Identifier of the module and version.'),
  },
  { title: 'Module', description: 'A module or plug-in of the software.' },
)

export const Software = Type.Object(
  {
    name: text('Name', 'Software name.'),
    version: text('Version', 'Software version.'),
    os: text('OS', 'Operating system.'),
    modules: nullable(Type.Array(Module), 'Modules', 'Modules of the software; null when none.'),
    fingerprint: Type.Optional(text('Fingerprint', 'Identifier of the software and version; may be empty or omitted.')),
  },
  { title: 'Software', description: 'Software identified behind the port.' },
)

export const Service = Type.Object(
  { credentials: Credentials, software: Software },
  { title: 'Service', description: 'What is known of the service behind the port.' },
)

export const Dataset = Type.Object(
  {
    rows: int('Rows', 'Rows or documents exposed.'),
    files: int('Files', 'Files exposed.'),
    size: int('Size', 'Bytes exposed.'),
    collections: int('Collections', 'Tables, indices or collections exposed.'),
    infected: flag('Infected', 'A ransom note or other sign of compromise was found.'),
    ransom_notes: nullable(texts('Ransom notes', ''), 'Ransom notes', 'Ransom notes found; null when none.'),
  },
  { title: 'Dataset', description: 'Size of the exposed data.' },
)

export const Leak = Type.Object(
  {
    stage: text('Stage', '`open`, `explore` or `exfiltrate`; empty for events that are not leaks.'),
    type: text('Type', 'Kind of leak, for example `configuration`; empty for events that are not leaks.'),
    severity: text('Severity', '`critical`, `high`, `medium`, `low` or `info`; empty for events that are not leaks.'),
    dataset: Dataset,
  },
  { title: 'Leak', description: 'The finding, for leak events.' },
)

export const Location = Type.Object(
  {
    lat: num('Latitude', 'Degrees north.', -90, 90),
    lon: num('Longitude', 'Degrees east.', -180, 180),
  },
  { title: 'Location', description: 'Geographic coordinates.' },
)

export const GeoIp = Type.Object(
  {
    continent_name: text('Continent', 'Continent name.'),
    region_iso_code: text('Region code', 'ISO code of the region.'),
    city_name: text('City', 'City name.'),
    country_iso_code: text('Country code', 'ISO 3166 code of the country.'),
    country_name: text('Country', 'Country name.'),
    region_name: text('Region', 'Region name.'),
    location: Location,
  },
  { title: 'GeoIP', description: 'Where the IP address is located.' },
)

export const Network = Type.Object(
  {
    organization_name: text('Organisation', 'Organisation holding the network.'),
    asn: int('ASN', 'Autonomous system number.', 0, 4294967295),
    network: text('Network', 'Network range in CIDR notation; may be empty.'),
  },
  { title: 'Network', description: 'The network the IP address belongs to.' },
)

export const Event = Type.Object(
  {
    event_type: text('Event type', '`service` or `leak` (tools also emit others, such as `synack`).'),
    event_source: text('Event source', 'Name of the plugin or tool that produced the event.'),
    event_pipeline: texts('Pipeline', 'Tools that processed the event, in order; the last is the producer.'),
    event_fingerprint: fingerprint('Event fingerprint', '64 lower-case hex characters; empty when not computed.'),
    ip: text('IP', 'IP address of the host.'),
    host: text('Host', 'Host name.'),
    reverse: text('Reverse', 'Reverse (PTR) name; may be empty.'),
    port: port('Port', 'Port number as a decimal string 0–65535; empty when unknown.'),
    mac: text('MAC', 'MAC address; may be empty.'),
    vendor: text('Vendor', 'Vendor of the MAC address; may be empty.'),
    transport: texts('Transport', 'Layers used, for example `tcp`, `tls`, `http`.'),
    protocol: text('Protocol', 'Application protocol, for example `https`.'),
    http: Http,
    summary: text('Summary', 'Free text: response headers, title and body excerpt, or a description of the finding.'),
    time: time('Time', 'When the event was seen: canonical UTC time; `0001-01-01T00:00:00Z` when unset.'),
    ssl: Ssl,
    ssh: Ssh,
    service: Service,
    leak: Leak,
    tags: texts('Tags', 'Labels; may be empty.'),
    geoip: GeoIp,
    network: Network,
    // The protocol objects (protocols.ts): each may be left out, and is then not written.
    ...PROTOCOL_MEMBERS,
  },
  {
    title: 'Event document',
    description: 'One observation of a host, service or leak, in the common format of recon tools and the lookup API.',
  },
)

export type Event = Static<typeof Event>
export type Http = Static<typeof Http>
export type Ssl = Static<typeof Ssl>
export type Certificate = Static<typeof Certificate>
export type Ssh = Static<typeof Ssh>
export type Service = Static<typeof Service>
export type Software = Static<typeof Software>
export type Leak = Static<typeof Leak>
export type GeoIp = Static<typeof GeoIp>
export type Network = Static<typeof Network>

/** The named parts, in the order they appear in the document; each becomes a `$defs` entry. */
export const EVENT_PARTS = {
  http: Http,
  ssl: Ssl,
  certificate: Certificate,
  ssh: Ssh,
  service: Service,
  credentials: Credentials,
  software: Software,
  module: Module,
  leak: Leak,
  dataset: Dataset,
  geoip: GeoIp,
  location: Location,
  network: Network,
  ...PROTOCOL_MEMBERS,
} as const

/**
 * Members whose `null` means absent and whose booleans and integers the lenient profile also
 * reads from text (`"yes"`, `"0"`, …), by the object that holds them: the protocol objects and
 * the members that extend `ssh`. Every other member keeps the lenient rules it always had.
 */
export const LENIENT_OPTIONAL: ReadonlyMap<object, readonly string[]> = new Map<object, readonly string[]>([
  [Event, Object.keys(PROTOCOL_MEMBERS)],
  [Ssh, Object.keys(SSH_EXTENSION)],
  ...Object.values(PROTOCOL_MEMBERS).map((part): [object, readonly string[]] => [part, Object.keys(part.properties)]),
])
