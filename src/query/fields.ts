/**
 * The fields a query can name: one row each, with its type and where its values are. Adding a
 * field (a protocol object's member, say `redis.auth_required`) is one row: the evaluator and
 * the SQL compiler read any member by its path, and a test checks every member of the event
 * schema has a row. Rows with a `source` are not (only) members: the stores keep them apart.
 */

import { PROTOCOL_FIELDS } from './protocol-fields.js'

/**
 * How values compare (docs/search.md has the rules): `text` by words, `keyword` exactly,
 * `ip` as addresses and ranges, `dns` as a name and every name under it, `integer`/`float`/
 * `date` as numbers and instants (ranges too), `bool`, `map` (header values by name, compared
 * as text), `country` (ISO code or name).
 */
export type FieldType = 'text' | 'keyword' | 'ip' | 'dns' | 'integer' | 'float' | 'date' | 'bool' | 'map' | 'country'

export interface Field {
  /** The canonical name, as docs/search.md lists it. */
  name: string
  type: FieldType
  /** Members from the document's root; `[]` steps into each element of an array. */
  path: readonly string[]
  /** Only in searches of leaks (and offline, where every field may be used). */
  leakOnly?: boolean
  /**
   * Values that are not simply the member at `path`: `address` the event's IP (its `ip`, or
   * its `host` when that is an address and `ip` is empty: what /host finds); `name` the host
   * as a canonical domain name; `first_seen`/`last_seen` the finding's times (the event's
   * `time` offline); `age` whole days from first to last seen; `country` the ISO code and name.
   */
  source?: 'address' | 'name' | 'first_seen' | 'last_seen' | 'age' | 'country'
  /**
   * A keyword whose values are decimal numbers (`port`): `:`/`:=` compare the text exactly,
   * ranges (`:>1000`) compare the values as numbers (what LeakIX's clients send).
   */
  numeric?: boolean
}

const f = (name: string, type: FieldType, extra: Partial<Field> = {}): Field => ({ name, type, path: name.split('.'), ...extra })
const leak = (name: string, type: FieldType, extra: Partial<Field> = {}): Field => f(name, type, { leakOnly: true, ...extra })
const list = (name: string, type: FieldType, extra: Partial<Field> = {}): Field => f(name, type, { path: [...name.split('.'), '[]'], ...extra })

export const FIELDS: readonly Field[] = [
  f('event_type', 'keyword'),
  f('event_source', 'keyword'),
  list('event_pipeline', 'keyword'),
  f('event_fingerprint', 'keyword'),
  f('ip', 'ip', { source: 'address' }),
  f('host', 'dns', { source: 'name' }),
  f('reverse', 'dns'),
  f('port', 'keyword', { numeric: true }),
  f('mac', 'keyword'),
  f('vendor', 'keyword'),
  list('transport', 'keyword'),
  f('protocol', 'keyword'),
  f('http.root', 'keyword'),
  f('http.url', 'keyword'),
  f('http.status', 'integer'),
  f('http.length', 'integer'),
  f('http.header', 'map'),
  f('http.title', 'text'),
  f('http.favicon_hash', 'keyword'),
  f('summary', 'text'),
  f('time', 'date'),
  f('ssl.detected', 'bool'),
  f('ssl.enabled', 'bool'),
  f('ssl.jarm', 'keyword'),
  f('ssl.cypher_suite', 'keyword'),
  f('ssl.version', 'keyword'),
  f('ssl.certificate.cn', 'dns'),
  list('ssl.certificate.domain', 'dns'),
  f('ssl.certificate.fingerprint', 'keyword'),
  f('ssl.certificate.key_algo', 'keyword'),
  f('ssl.certificate.key_size', 'integer'),
  f('ssl.certificate.issuer_name', 'text'),
  f('ssl.certificate.not_before', 'date'),
  f('ssl.certificate.not_after', 'date'),
  f('ssl.certificate.valid', 'bool'),
  f('ssh.fingerprint', 'keyword'),
  f('ssh.version', 'integer'),
  f('ssh.banner', 'text'),
  f('ssh.motd', 'text'),
  f('service.software.name', 'keyword'),
  f('service.software.version', 'keyword'),
  f('service.software.os', 'keyword'),
  f('service.software.fingerprint', 'keyword'),
  f('service.software.modules.name', 'keyword', { path: ['service', 'software', 'modules', '[]', 'name'] }),
  f('service.software.modules.version', 'keyword', { path: ['service', 'software', 'modules', '[]', 'version'] }),
  f('service.software.modules.fingerprint', 'keyword', { path: ['service', 'software', 'modules', '[]', 'fingerprint'] }),
  list('tags', 'keyword'),
  f('geoip.continent_name', 'keyword'),
  f('geoip.region_iso_code', 'keyword'),
  f('geoip.city_name', 'keyword'),
  f('geoip.country_iso_code', 'keyword'),
  f('geoip.country_name', 'keyword'),
  f('geoip.region_name', 'keyword'),
  f('geoip.location.lat', 'float'),
  f('geoip.location.lon', 'float'),
  f('network.organization_name', 'text'),
  f('network.asn', 'integer'),
  f('network.network', 'keyword'),
  f('country', 'country', { path: ['geoip'], source: 'country' }),
  leak('creation_date', 'date', { path: [], source: 'first_seen' }),
  leak('update_date', 'date', { path: [], source: 'last_seen' }),
  leak('age', 'integer', { path: [], source: 'age' }),
  leak('leak.stage', 'keyword'),
  leak('leak.type', 'keyword'),
  leak('leak.severity', 'keyword'),
  leak('leak.dataset.rows', 'integer'),
  leak('leak.dataset.files', 'integer'),
  leak('leak.dataset.size', 'integer'),
  leak('leak.dataset.collections', 'integer'),
  leak('leak.dataset.infected', 'bool'),
  leak('leak.dataset.ransom_notes', 'text', { path: ['leak', 'dataset', 'ransom_notes', '[]'] }),
  leak('service.credentials.noauth', 'bool'),
  leak('service.credentials.username', 'keyword'),
  leak('service.credentials.password', 'keyword'),
  leak('service.credentials.key', 'keyword'),
  leak('service.credentials.raw', 'keyword'),
  // The protocol objects and the `ssh` extension, one row per member (protocol-fields.ts).
  ...PROTOCOL_FIELDS,
]

/** Short names and the fields they stand for (`dataset.X` stands for `leak.dataset.X`, see resolveField). */
export const ALIASES: Readonly<Record<string, string>> = {
  plugin: 'event_source',
  l9fp: 'event_fingerprint',
  severity: 'leak.severity',
  asn: 'network.asn',
  domain: 'host',
  jarm: 'ssl.jarm',
}

/** The text fields a bare word or phrase searches. */
export const BARE_FIELDS: readonly string[] = ['summary', 'http.title', 'ssh.banner']

const BY_NAME = new Map(FIELDS.map((field) => [field.name, field]))

/**
 * The prefix of the members of LeakIX's aggregated index (one document per resource, its events
 * under `events`): `events.leak.severity` is our `leak.severity`, since we search events.
 */
export const EVENTS_PREFIX = 'events.'

/** The field (and for `http.header.NAME`, the header name in lower case) a name stands for. */
export function resolveField(name: string): { field: Field; key?: string } | undefined {
  if (name.startsWith(EVENTS_PREFIX) && name.length > EVENTS_PREFIX.length) return resolveField(name.slice(EVENTS_PREFIX.length))
  const direct = BY_NAME.get(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name)
  if (direct !== undefined) return { field: direct }
  if (name.startsWith('dataset.')) {
    const field = BY_NAME.get(`leak.${name}`)
    if (field !== undefined) return { field }
  }
  for (const field of FIELDS) {
    if (field.type === 'map' && name.startsWith(`${field.name}.`) && name.length > field.name.length + 1) {
      return { field, key: name.slice(field.name.length + 1) }
    }
  }
  return undefined
}

/** The fields of the bare words. */
export const bareFields = (): Field[] => BARE_FIELDS.map((name) => BY_NAME.get(name)!)

/** Every name a query may use: fields and short names (for suggestions and docs). */
export const fieldNames = (): string[] => [...FIELDS.map((field) => field.name), ...Object.keys(ALIASES)]

/**
 * Up to three known names close to `name` (edit distance, or the same last part): for "did
 * you mean" in the unknown-field error.
 */
export function closestFields(name: string): string[] {
  const last = name.slice(name.lastIndexOf('.') + 1)
  const scored = fieldNames()
    .map((known) => {
      const knownLast = known.slice(known.lastIndexOf('.') + 1)
      const distance = Math.min(editDistance(name, known), knownLast === last ? 1 : Infinity, editDistance(last, knownLast) + 1)
      return { known, distance }
    })
    .filter((s) => s.distance <= Math.max(2, Math.floor(name.length / 4)))
    .sort((a, b) => a.distance - b.distance || a.known.localeCompare(b.known))
  // The closest only (and those one step further), at most three.
  const best = scored[0]?.distance ?? 0
  return scored.filter((s) => s.distance <= best + 1).slice(0, 3).map((s) => s.known)
}

/** Levenshtein distance, for short names only (the query's length is bounded). */
function editDistance(a: string, b: string): number {
  if (a.length > 64 || b.length > 64) return Infinity
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    prev = row
  }
  return prev[b.length]!
}
