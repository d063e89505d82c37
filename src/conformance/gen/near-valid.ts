/**
 * Documents one defect away from strict validity, with the issue the strict profile must
 * report for it: one code at one pointer.
 */
import fc, { type Arbitrary } from 'fast-check'
import { pointerOf } from '../../validate/issue.js'
import type { IssueCode } from '../../validate/issue.js'
import { type EventOptions, strictEvent } from './event.js'
import { PROTOCOL_KINDS, SSH_EXTENSION_KINDS } from './protocols.js'
import { ODD_HEADER_NAMES } from './text.js'

export interface NearValid {
  /** The document with its one defect. */
  doc: unknown
  /** The code the strict profile must report… */
  code: IssueCode
  /** …at this JSON pointer. */
  pointer: string
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'strings' | 'object' | 'nullable-string' | 'nullable-array' | 'map'

/** Every member of the strict event whose type can be broken, with its kind. */
export const MEMBER_KINDS: readonly [string[], Kind][] = [
  [['event_type'], 'string'], [['event_source'], 'string'], [['event_pipeline'], 'strings'], [['event_fingerprint'], 'string'],
  [['ip'], 'string'], [['host'], 'string'], [['reverse'], 'string'], [['port'], 'string'], [['mac'], 'string'],
  [['vendor'], 'string'], [['transport'], 'strings'], [['protocol'], 'string'], [['http'], 'object'],
  [['http', 'root'], 'string'], [['http', 'url'], 'string'], [['http', 'status'], 'integer'], [['http', 'length'], 'integer'],
  [['http', 'header'], 'map'], [['http', 'title'], 'string'], [['http', 'favicon_hash'], 'string'], [['summary'], 'string'],
  [['time'], 'string'], [['ssl'], 'object'], [['ssl', 'detected'], 'boolean'], [['ssl', 'enabled'], 'boolean'],
  [['ssl', 'jarm'], 'string'], [['ssl', 'cypher_suite'], 'string'], [['ssl', 'version'], 'string'], [['ssl', 'certificate'], 'object'],
  [['ssl', 'certificate', 'cn'], 'string'], [['ssl', 'certificate', 'domain'], 'strings'], [['ssl', 'certificate', 'fingerprint'], 'string'],
  [['ssl', 'certificate', 'key_algo'], 'string'], [['ssl', 'certificate', 'key_size'], 'integer'], [['ssl', 'certificate', 'issuer_name'], 'string'],
  [['ssl', 'certificate', 'not_before'], 'string'], [['ssl', 'certificate', 'not_after'], 'string'], [['ssl', 'certificate', 'valid'], 'boolean'],
  [['ssh'], 'object'], [['ssh', 'fingerprint'], 'string'], [['ssh', 'version'], 'integer'], [['ssh', 'banner'], 'string'], [['ssh', 'motd'], 'string'],
  [['service'], 'object'], [['service', 'credentials'], 'object'], [['service', 'credentials', 'noauth'], 'boolean'],
  [['service', 'credentials', 'username'], 'string'], [['service', 'credentials', 'password'], 'string'], [['service', 'credentials', 'key'], 'string'],
  [['service', 'credentials', 'raw'], 'nullable-string'], [['service', 'software'], 'object'], [['service', 'software', 'name'], 'string'],
  [['service', 'software', 'version'], 'string'], [['service', 'software', 'os'], 'string'], [['service', 'software', 'modules'], 'nullable-array'],
  [['leak'], 'object'], [['leak', 'stage'], 'string'], [['leak', 'type'], 'string'], [['leak', 'severity'], 'string'], [['leak', 'dataset'], 'object'],
  [['leak', 'dataset', 'rows'], 'integer'], [['leak', 'dataset', 'files'], 'integer'], [['leak', 'dataset', 'size'], 'integer'],
  [['leak', 'dataset', 'collections'], 'integer'], [['leak', 'dataset', 'infected'], 'boolean'], [['leak', 'dataset', 'ransom_notes'], 'nullable-array'],
  [['tags'], 'strings'], [['geoip'], 'object'], [['geoip', 'continent_name'], 'string'], [['geoip', 'region_iso_code'], 'string'],
  [['geoip', 'city_name'], 'string'], [['geoip', 'country_iso_code'], 'string'], [['geoip', 'country_name'], 'string'],
  [['geoip', 'region_name'], 'string'], [['geoip', 'location'], 'object'], [['geoip', 'location', 'lat'], 'number'],
  [['geoip', 'location', 'lon'], 'number'], [['network'], 'object'], [['network', 'organization_name'], 'string'],
  [['network', 'asn'], 'integer'], [['network', 'network'], 'string'],
]

/** Values of some other JSON type than the kind expects (`1.5` is not an integer). */
const WRONG: Record<Kind, unknown[]> = {
  string: [0, 443, true, null, [], {}],
  integer: ['80', 1.5, true, null, [], {}],
  number: ['1.5', true, null, [], {}],
  boolean: ['true', 0, 1, null, [], {}],
  strings: [null, 'tcp', {}, 0],
  object: [null, [], 'x', 0, true],
  'nullable-string': [0, true, [], {}],
  'nullable-array': ['', {}, 0, true],
  map: [null, [], 'Server: nginx', 0],
}

type Defect = { apply: (doc: Record<string, unknown>) => void; code: IssueCode; pointer: string }

const parentOf = (doc: Record<string, unknown>, path: string[]) => {
  let node = doc
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>
  return node
}
const setAt = (path: string[], value: unknown) => (doc: Record<string, unknown>) => {
  parentOf(doc, path)[path[path.length - 1]!] = value
}

const wrongType: Arbitrary<Defect> = fc
  .constantFrom(...MEMBER_KINDS)
  .chain(([path, kind]) => fc.constantFrom(...WRONG[kind]).map((value) => ({ apply: setAt(path, value), code: 'wrong_type' as const, pointer: pointerOf(...path) })))

const wrongItem: Arbitrary<Defect> = fc
  .tuple(fc.constantFrom<string[]>(['transport'], ['tags'], ['event_pipeline'], ['ssl', 'certificate', 'domain']), fc.constantFrom(0, null, true, {}))
  .map(([path, value]) => ({
    apply: (doc) => {
      const list = parentOf(doc, path)[path[path.length - 1]!] as unknown[]
      list.splice(0, list.length, value)
    },
    code: 'wrong_type',
    pointer: pointerOf(...path, 0),
  }))

const wrongHeaderValue: Arbitrary<Defect> = fc
  .tuple(fc.constantFrom(...ODD_HEADER_NAMES, 'Server'), fc.constantFrom(0, null, true, ['a']))
  .map(([name, value]) => ({
    apply: (doc) => {
      const http = doc.http as Record<string, unknown>
      // Through JSON.parse so that `__proto__` is an own member, as in a parsed document.
      http.header = JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`)
    },
    code: 'wrong_type',
    pointer: pointerOf('http', 'header', name),
  }))

const missing: Arbitrary<Defect> = fc.constantFrom(...MEMBER_KINDS).map(([path]) => ({
  apply: (doc) => {
    delete parentOf(doc, path)[path[path.length - 1]!]
  },
  code: 'missing_member',
  pointer: pointerOf(...path),
}))

const TIME_MEMBERS = [['time'], ['ssl', 'certificate', 'not_before'], ['ssl', 'certificate', 'not_after']]
const BAD_TIMES = [
  '2023-01-02T03:04:05+00:00', '2023-01-02T03:04:05.120Z', '2023-01-02 03:04:05Z', '2023-01-02t03:04:05z',
  '2023-02-30T00:00:00Z', '2023-01-02T24:00:00Z', '2023-01-02T03:04:05', '2023-01-02T03:04:05.1234567891Z', '', 'now',
]
const badTime: Arbitrary<Defect> = fc
  .tuple(fc.constantFrom(...TIME_MEMBERS), fc.constantFrom(...BAD_TIMES))
  .map(([path, value]) => ({ apply: setAt(path, value), code: 'bad_timestamp', pointer: pointerOf(...path) }))

const BAD_FINGERPRINTS = ['A'.repeat(64), 'f'.repeat(63), 'f'.repeat(65), 'g'.repeat(64), ` ${'0'.repeat(64)}`]
const badFingerprint: Arbitrary<Defect> = fc
  .tuple(fc.constantFrom<string[]>(['event_fingerprint'], ['ssl', 'certificate', 'fingerprint']), fc.constantFrom(...BAD_FINGERPRINTS))
  .map(([path, value]) => ({ apply: setAt(path, value), code: 'bad_fingerprint', pointer: pointerOf(...path) }))

const badPort: Arbitrary<Defect> = fc
  .constantFrom('080', '65536', ' 80', '80 ', '-1', 'http', '1e3', '99999')
  .map((value) => ({ apply: setAt(['port'], value), code: 'bad_port', pointer: '/port' }))

const OUT_OF_RANGE: [string[], number][] = [
  [['http', 'status'], 1000], [['http', 'status'], -1], [['http', 'length'], -1], [['network', 'asn'], 4294967296],
  [['network', 'asn'], -5], [['geoip', 'location', 'lat'], 90.5], [['geoip', 'location', 'lat'], -91],
  [['geoip', 'location', 'lon'], 180.25], [['ssh', 'version'], -1], [['leak', 'dataset', 'rows'], -1],
]
const outOfRange: Arbitrary<Defect> = fc
  .constantFrom(...OUT_OF_RANGE)
  .map(([path, value]) => ({ apply: setAt(path, value), code: 'out_of_range', pointer: pointerOf(...path) }))

/** A protocol member's value of another type (`"no"` is not a boolean in the strict profile; `null` is not absent). */
const WRONG_PROTOCOL: Record<string, unknown[]> = {
  string: [0, true, null, [], {}],
  strings: [null, 'tcp', {}, 0],
  boolean: ['no', 'yes', 'true', 0, 1, null],
  integer: ['5', 1.5, true, null, []],
}

const wrongProtocolMember: Arbitrary<Defect> = fc
  .constantFrom(...PROTOCOL_KINDS.flatMap(([object, members]) => members.map(([member, kind]) => [object, member, kind] as const)))
  .chain(([object, member, kind]) =>
    fc.constantFrom(...WRONG_PROTOCOL[kind]!).map((value) => ({
      apply: (doc: Record<string, unknown>) => {
        // Into the object if the event has it, else into a new one.
        const target = (doc[object] ??= {}) as Record<string, unknown>
        target[member] = value
      },
      code: 'wrong_type' as const,
      pointer: pointerOf(object, member),
    })),
  )

const wrongSshExtension: Arbitrary<Defect> = fc
  .constantFrom(...SSH_EXTENSION_KINDS)
  .chain(([member, kind]) => fc.constantFrom(...WRONG_PROTOCOL[kind]!).map((value) => ({ apply: setAt(['ssh', member], value), code: 'wrong_type' as const, pointer: pointerOf('ssh', member) })))

const wrongProtocolObject: Arbitrary<Defect> = fc
  .tuple(fc.constantFrom(...PROTOCOL_KINDS.map(([name]) => name)), fc.constantFrom(null, [], 'redis', 0, true))
  .map(([object, value]) => ({ apply: setAt([object], value), code: 'wrong_type', pointer: pointerOf(object) }))

/**
 * A strict event with exactly one defect, and the one error the strict profile must report
 * for it (`wrong_type`, `missing_member`, `bad_timestamp`, `bad_fingerprint`, `bad_port`,
 * `out_of_range`, or `not_object` for a document that is not an object at all). Protocol
 * objects and the `ssh` extension included: a member of the wrong type, `null` for a member
 * (absent is written by leaving it out), an object that is not one.
 */
export function nearValidEvent(options: EventOptions = {}): Arbitrary<NearValid> {
  const defect = fc.oneof(
    { weight: 4, arbitrary: wrongType },
    { weight: 1, arbitrary: wrongItem },
    { weight: 1, arbitrary: wrongHeaderValue },
    { weight: 2, arbitrary: missing },
    { weight: 2, arbitrary: badTime },
    { weight: 1, arbitrary: badFingerprint },
    { weight: 1, arbitrary: badPort },
    { weight: 1, arbitrary: outOfRange },
    { weight: 2, arbitrary: wrongProtocolMember },
    { weight: 1, arbitrary: wrongSshExtension },
    { weight: 1, arbitrary: wrongProtocolObject },
  )
  const notObject = fc
    .constantFrom<unknown>(null, [], 'event', 42, true, [{}])
    .map((doc): NearValid => ({ doc, code: 'not_object', pointer: '' }))
  const broken = fc.tuple(strictEvent(options), defect).map(([event, d]): NearValid => {
    const doc = JSON.parse(JSON.stringify(event)) as Record<string, unknown>
    d.apply(doc)
    return { doc, code: d.code, pointer: d.pointer }
  })
  return fc.oneof({ weight: 12, arbitrary: broken }, { weight: 1, arbitrary: notObject })
}
