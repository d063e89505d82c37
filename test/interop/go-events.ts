/**
 * Event documents as lines of bytes that Go's decoder reads into the original's types (port a
 * string, numbers as numbers, raw as base64), generated to hit what breaks naive encoders:
 * header names that differ only in case, look like array indices, are `__proto__`, are
 * non-ASCII or astral; `<>&`, U+2028/2029, control characters, invalid UTF-8 bytes inside
 * strings; empty and null maps and lists; nanosecond times with offsets; large and tiny
 * numbers. Seeded, so every run reads the same documents.
 */
import fc from 'fast-check'

/** Characters that stand for invalid UTF-8 in the generated text, and the bytes written for them. */
const INVALID: [string, number[]][] = [
  ['\u{10fff0}', [0xff]], // never valid
  ['\u{10fff1}', [0xe2, 0x82]], // a truncated 3-byte sequence: two U+FFFD in Go, one in a browser
  ['\u{10fff2}', [0xf0, 0x9f, 0x98]], // a truncated 4-byte sequence
  ['\u{10fff3}', [0xed, 0xa0, 0x80]], // a UTF-16 surrogate encoded as UTF-8
  ['\u{10fff4}', [0xc0, 0xaf]], // an overlong '/'
  ['\u{10fff5}', [0x80]], // a lone continuation byte
]

const valid = fc.constantFrom(
  'a',
  'Server',
  ' ',
  '<',
  '>',
  '&',
  '<script>',
  '\u2028',
  '\u2029',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '"',
  '\\',
  '/',
  'é',
  '中文',
  '\ue000',
  '\uffff',
  '\ufffd',
  '😀',
  '𝄞',
)
// Rare enough that about half the lines hold no invalid byte at all.
const pieces = fc.oneof({ weight: 120, arbitrary: valid }, { weight: 1, arbitrary: fc.constantFrom(...INVALID.map(([mark]) => mark)) })
const text = fc.array(pieces, { maxLength: 8 }).map((p) => p.join(''))
const word = fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9.-]{1,12}$/))

const headerName = fc.oneof(
  fc.constantFrom(
    'Server',
    'server',
    'SERVER',
    'Content-Type',
    'content-type',
    'Date',
    'X-B',
    'Set-Cookie',
    'set-cookie',
    '0',
    '1',
    '9',
    '10',
    '4294967294',
    '4294967295',
    '-1',
    '01',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '',
    'ü-header',
    '\ue000',
    '😀',
    'x<&>',
    'a\u2028b',
  ),
  text,
)

/** A header map with names inserted in generated order (so never sorted on purpose), or null. */
const header = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant({}) },
  {
    weight: 8,
    arbitrary: fc.array(fc.tuple(headerName, text), { maxLength: 10 }).map((pairs) => {
      const map: Record<string, string> = {}
      for (const [name, value] of pairs) Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true })
      return map
    }),
  },
)

const pad = (n: number, width = 2) => String(n).padStart(width, '0')
/** RFC 3339 with 0–9 fraction digits (trailing zeros too) and any offset, years kept well inside 0001–9999. */
const time = fc
  .record({
    year: fc.integer({ min: 2, max: 9998 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9]{1,9}$/).map((d) => `.${d}`)),
    zone: fc.oneof(fc.constant('Z'), fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([s, h, m]) => `${s}${pad(h)}:${pad(m)}`)),
  })
  .map((t) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${t.fraction}${t.zone}`)
const zeroTime = fc.oneof({ weight: 1, arbitrary: fc.constant('0001-01-01T00:00:00Z') }, { weight: 4, arbitrary: time })

const list = (item: fc.Arbitrary<string>) => fc.oneof(fc.constant(null), fc.array(item, { maxLength: 4 }))
const int = (max: number) => fc.oneof(fc.constant(0), fc.integer({ min: 0, max }))
const coordinate = (max: number) => fc.oneof(fc.constant(0), fc.constant(-0), fc.constantFrom(1e-7, 1.5e-7, 0.000001, 12.5, -33.8688), fc.double({ min: -max, max, noNaN: true }))
const base64 = fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b).toString('base64'))
const hex64 = fc.stringMatching(/^[0-9a-fA-F]{64}$/)

const event = fc.record({
  event_type: fc.constantFrom('service', 'leak', 'synack'),
  event_source: word,
  event_pipeline: list(word),
  event_fingerprint: fc.oneof(fc.constant(''), hex64),
  ip: fc.constantFrom('192.0.2.1', '2001:db8::1', ''),
  host: word,
  reverse: word,
  port: fc.oneof(fc.constant(''), fc.integer({ min: 0, max: 65535 }).map(String)),
  mac: word,
  vendor: text,
  transport: list(fc.constantFrom('tcp', 'udp', 'tls', 'http')),
  protocol: word,
  http: fc.record({ root: text, url: text, status: int(999), length: int(Number.MAX_SAFE_INTEGER), header, title: text, favicon_hash: word }),
  summary: text,
  time,
  ssl: fc.record({
    detected: fc.boolean(),
    enabled: fc.boolean(),
    jarm: word,
    cypher_suite: word,
    version: word,
    certificate: fc.record({ cn: text, domain: list(word), fingerprint: fc.oneof(fc.constant(''), hex64), key_algo: word, key_size: int(16384), issuer_name: text, not_before: zeroTime, not_after: zeroTime, valid: fc.boolean() }),
  }),
  ssh: fc.record({ fingerprint: word, version: int(2), banner: text, motd: text }),
  service: fc.record({
    credentials: fc.record({ noauth: fc.boolean(), username: text, password: text, key: word, raw: fc.oneof(fc.constant(null), fc.constant(''), base64) }),
    software: fc.record({ name: text, version: word, os: word, modules: fc.oneof(fc.constant(null), fc.array(fc.record({ name: text, version: word, fingerprint: word }), { maxLength: 3 })), fingerprint: word }),
  }),
  leak: fc.record({
    stage: fc.constantFrom('', 'open', 'explore', 'exfiltrate'),
    type: word,
    severity: fc.constantFrom('', 'critical', 'high', 'medium', 'low', 'info'),
    dataset: fc.record({ rows: int(1e12), files: int(1e6), size: int(Number.MAX_SAFE_INTEGER), collections: int(1000), infected: fc.boolean(), ransom_notes: list(text) }),
  }),
  tags: list(word),
  geoip: fc.record({
    continent_name: text,
    region_iso_code: word,
    city_name: text,
    country_iso_code: word,
    country_name: text,
    region_name: text,
    location: fc.record({ lat: coordinate(90), lon: coordinate(180) }),
  }),
  network: fc.record({ organization_name: text, asn: int(4294967295), network: word }),
})

/** The UTF-8 bytes of `text`, with each stand-in character replaced by its invalid bytes. */
function withInvalidBytes(text: string): Buffer {
  const buf = Buffer.from(text, 'utf8')
  if (!/[\u{10fff0}-\u{10fff5}]/u.test(text)) return buf
  const out: number[] = []
  for (let i = 0; i < buf.length; i++) {
    // A stand-in is F4 8F BF B0–B5 in UTF-8.
    if (buf[i] === 0xf4 && buf[i + 1] === 0x8f && buf[i + 2] === 0xbf && buf[i + 3]! >= 0xb0 && buf[i + 3]! <= 0xb5) {
      out.push(...INVALID[buf[i + 3]! - 0xb0]![1])
      i += 3
    } else out.push(buf[i]!)
  }
  return Buffer.from(out)
}

/** `count` generated events as JSON Lines bytes (each line ends in `\n`). */
export function goEvents(count: number, seed = 18): Buffer {
  const docs = fc.sample(event, { numRuns: count, seed })
  return Buffer.concat(docs.map((doc) => withInvalidBytes(`${JSON.stringify(doc)}\n`)))
}
