/**
 * A generator of lenient event documents: what real tools emit (missing members, nulls,
 * numbers as strings, any time offset, upper-case hex, duplicate transports, header names
 * that differ by case or are `__proto__`, unknown members). Local to the normaliser tests.
 */
import fc from 'fast-check'
import { PROTOCOL_KINDS, SSH_EXTENSION_KINDS } from '../../src/conformance/gen/protocols.js'

/** Sets a member as data, so `__proto__` becomes an own member as JSON.parse would make it. */
function put(target: Record<string, unknown>, name: string, value: unknown) {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true })
}

/** An object with any subset of the given members, in the given order. */
const some = <T extends Record<string, fc.Arbitrary<unknown>>>(members: T) => fc.record(members, { requiredKeys: [] })

const word = fc.string({ maxLength: 12 })
const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'))

export const lenientTime = fc
  .record({
    year: fc.integer({ min: 1, max: 9998 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: twoDigits(23),
    minute: twoDigits(59),
    second: twoDigits(59),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,9}$/).map((d) => `.${d}`)),
    separator: fc.constantFrom('T', 'T', 't', ' '),
    zone: fc.oneof(
      fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
      fc.tuple(fc.constantFrom('+', '-'), twoDigits(23), twoDigits(59)).map(([s, h, m]) => `${s}${h}:${m}`),
    ),
  })
  .map(
    (t) =>
      `${String(t.year).padStart(4, '0')}-${String(t.month).padStart(2, '0')}-${String(t.day).padStart(2, '0')}` +
      `${t.separator}${t.hour}:${t.minute}:${t.second}${t.fraction}${t.zone}`,
  )

const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/)
const fingerprint = fc.oneof(fc.constant(''), hex64, hex64.map((h) => h.toLowerCase()))
const port = fc.oneof(
  fc.integer({ min: 0, max: 65535 }),
  fc.integer({ min: 0, max: 65535 }).map(String),
  fc.tuple(fc.constantFrom('0', '00'), fc.integer({ min: 0, max: 65535 })).map(([zeros, n]) => `${zeros}${n}`),
  fc.constant(''),
)
const intOrString = (max: number) => fc.oneof(fc.integer({ min: 0, max }), fc.integer({ min: 0, max }).map((n) => (n % 2 ? `+${n}` : `00${n}`)))
const coordinate = (max: number) =>
  fc.oneof(fc.double({ min: -max, max, noNaN: true }), fc.double({ min: -max, max, noNaN: true }).map(String), fc.constant('0.0'))
const strings = fc.oneof(fc.constant(null), fc.array(word, { maxLength: 4 }))
const layers = fc.oneof(fc.constant(null), fc.array(fc.constantFrom('tcp', 'udp', 'tls', 'http', 'Tcp'), { maxLength: 6 }))

const headerName = fc.constantFrom(
  'Server',
  'server',
  'SERVER',
  'Content-Type',
  'Set-Cookie',
  'set-cookie',
  'SET-COOKIE',
  '__proto__',
  'constructor',
  'Constructor',
  'prototype',
  'hasOwnProperty',
  'x-a/b~c',
  '',
  // Byte order against what JavaScript objects do: index-like names, astral vs U+E000.
  '0',
  '10',
  '9',
  'Date',
  'X-B',
  '\ue000',
  '\u{1f600}',
  'a<&>\u2028',
)
const headers = fc.oneof(
  fc.constant(null),
  fc.array(fc.tuple(headerName, word), { maxLength: 6 }).map((pairs) => {
    const map: Record<string, unknown> = {}
    for (const [name, value] of pairs) put(map, name, value)
    return map
  }),
)

const module = some({ name: word, version: word, fingerprint: word })

/** Protocol members as tools write them: null for absent, yes/no answers in any spelling, integers as text. */
const PROTOCOL_VALUES = {
  string: fc.oneof(word, fc.constant(null)),
  strings: strings,
  boolean: fc.constantFrom(true, false, 'yes', 'no', 'Yes', 'NO', 'true', 'False', '1', '0', 1, 0, null),
  integer: fc.oneof(intOrString(Number.MAX_SAFE_INTEGER), fc.constant(null)),
}
const protocolMembers = (members: readonly (readonly [string, keyof typeof PROTOCOL_VALUES])[]) =>
  Object.fromEntries(members.map(([name, kind]) => [name, PROTOCOL_VALUES[kind]]))

/** Unknown members (names no part of the format uses), `__proto__` among them. */
const unknown = fc.array(fc.tuple(fc.constantFrom('x_extra', '__proto__', 'prototype', 'zz', 'event_id'), fc.jsonValue({ maxDepth: 2 })), {
  maxLength: 2,
})

const withUnknown = <T>(arb: fc.Arbitrary<T>) =>
  fc.tuple(arb, unknown).map(([value, extra]) => {
    for (const [name, v] of extra) put(value as Record<string, unknown>, name, v)
    return value
  })

export const lenientDocument = withUnknown(
  some({
    event_type: fc.constantFrom('service', 'leak', 'synack', ''),
    event_source: fc.constantFrom('http', 'tcp.synack', 'elasticsearch', ''),
    event_pipeline: strings,
    event_fingerprint: fingerprint,
    ip: fc.oneof(fc.ipV4(), fc.ipV6(), fc.constant('')),
    host: fc.oneof(fc.domain(), fc.constant('')),
    reverse: word,
    port,
    mac: word,
    vendor: word,
    transport: layers,
    protocol: fc.constantFrom('http', 'https', 'ssh', ''),
    http: withUnknown(
      some({
        root: word,
        url: word,
        status: intOrString(999),
        length: intOrString(1_000_000),
        header: headers,
        title: word,
        favicon_hash: word,
      }),
    ),
    summary: fc.string({ maxLength: 80 }),
    time: lenientTime,
    ssl: some({
      detected: fc.boolean(),
      enabled: fc.boolean(),
      jarm: word,
      cypher_suite: word,
      version: word,
      certificate: some({
        cn: word,
        domain: strings,
        fingerprint,
        key_algo: word,
        key_size: intOrString(16384),
        issuer_name: word,
        not_before: lenientTime,
        not_after: lenientTime,
        valid: fc.boolean(),
      }),
    }),
    ssh: some({ fingerprint: word, version: intOrString(2), banner: word, motd: word, ...protocolMembers(SSH_EXTENSION_KINDS) }),
    service: some({
      credentials: some({ noauth: fc.boolean(), username: word, password: word, key: word, raw: fc.oneof(fc.constant(null), fc.base64String()) }),
      software: some({
        name: word,
        version: word,
        os: word,
        modules: fc.oneof(fc.constant(null), fc.array(module, { maxLength: 3 })),
        fingerprint: word,
      }),
    }),
    leak: some({
      stage: fc.constantFrom('open', ''),
      type: fc.constantFrom('configuration', ''),
      severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info', ''),
      dataset: some({
        rows: intOrString(1e12),
        files: intOrString(1e6),
        size: intOrString(1e15),
        collections: intOrString(1000),
        infected: fc.boolean(),
        ransom_notes: strings,
      }),
    }),
    tags: fc.oneof(fc.constant(null), fc.array(fc.constantFrom('honeypot', 'cdn', 'waf', 'HoneyPot'), { maxLength: 5 })),
    geoip: some({
      continent_name: word,
      region_iso_code: word,
      city_name: word,
      country_iso_code: word,
      country_name: word,
      region_name: word,
      location: some({ lat: coordinate(90), lon: coordinate(180) }),
    }),
    network: some({ organization_name: word, asn: intOrString(4294967295), network: word }),
    // The protocol objects: absent, null, or some of their members (unknown ones too).
    ...Object.fromEntries(PROTOCOL_KINDS.map(([name, members]) => [name, fc.oneof(fc.constant(null), withUnknown(some(protocolMembers(members))))])),
  }),
)

/** A lenient document as the JSON text a tool would write (so parsing makes `__proto__` plain data). */
export const lenientText = lenientDocument.map((doc) => JSON.stringify(doc))
