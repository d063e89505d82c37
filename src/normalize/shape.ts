/**
 * The event document as normalisers: one entry per member, in canonical order (the order of
 * emptyEvent() and of the specification's tables, then the protocol objects of protocols.ts,
 * which emptyEvent() leaves out). Changing the format means changing this table and src/schema
 * together; a test checks that they agree.
 */
import type { Event } from '../schema/index.js'
import { nullableBase64 } from './base64.js'
import { headers } from './headers.js'
import { nullableList, texts, uniqueTexts } from './lists.js'
import { type Members, type ObjectField, objectField } from './object.js'
import { PROTOCOL_MEMBERS, SSH_EXTENSION_MEMBERS } from './protocols.js'
import { fingerprint, flag, int, num, port, text, time } from './values.js'

const http = objectField([
  ['root', text],
  ['url', text],
  ['status', int(0, 999)],
  ['length', int()],
  ['header', headers],
  ['title', text],
  ['favicon_hash', text],
])

const certificate = objectField([
  ['cn', text],
  ['domain', texts],
  ['fingerprint', fingerprint],
  ['key_algo', text],
  ['key_size', int()],
  ['issuer_name', text],
  ['not_before', time],
  ['not_after', time],
  ['valid', flag],
])

const ssl = objectField([
  ['detected', flag],
  ['enabled', flag],
  ['jarm', text],
  ['cypher_suite', text],
  ['version', text],
  ['certificate', certificate],
])

const ssh = objectField([
  ['fingerprint', text],
  ['version', int()],
  ['banner', text],
  ['motd', text],
  ...SSH_EXTENSION_MEMBERS,
])

const credentials = objectField([
  ['noauth', flag],
  ['username', text],
  ['password', text],
  ['key', text],
  ['raw', nullableBase64],
])

const module = objectField([
  ['name', text],
  ['version', text],
  ['fingerprint', text],
])

// `fingerprint` may be omitted in the specification; we always write it (facts.md).
const software = objectField([
  ['name', text],
  ['version', text],
  ['os', text],
  ['modules', nullableList(module, 'array of modules')],
  ['fingerprint', text],
])

const service = objectField([
  ['credentials', credentials],
  ['software', software],
])

const dataset = objectField([
  ['rows', int()],
  ['files', int()],
  ['size', int()],
  ['collections', int()],
  ['infected', flag],
  ['ransom_notes', nullableList(text, 'array of strings')],
])

const leak = objectField([
  ['stage', text],
  ['type', text],
  ['severity', text],
  ['dataset', dataset],
])

const location = objectField([
  ['lat', num(-90, 90)],
  ['lon', num(-180, 180)],
])

const geoip = objectField([
  ['continent_name', text],
  ['region_iso_code', text],
  ['city_name', text],
  ['country_iso_code', text],
  ['country_name', text],
  ['region_name', text],
  ['location', location],
])

const network = objectField([
  ['organization_name', text],
  ['asn', int(0, 4294967295)],
  ['network', text],
])

/** The event document's members, in canonical order. */
export const EVENT_MEMBERS: Members = [
  ['event_type', text],
  ['event_source', text],
  ['event_pipeline', texts],
  ['event_fingerprint', fingerprint],
  ['ip', text],
  ['host', text],
  ['reverse', text],
  ['port', port],
  ['mac', text],
  ['vendor', text],
  ['transport', uniqueTexts],
  ['protocol', text],
  ['http', http],
  ['summary', text],
  ['time', time],
  ['ssl', ssl],
  ['ssh', ssh],
  ['service', service],
  ['leak', leak],
  ['tags', uniqueTexts],
  ['geoip', geoip],
  ['network', network],
  ...PROTOCOL_MEMBERS,
]

/** The whole event document. */
export const EVENT: ObjectField<Event> = objectField<Event>(EVENT_MEMBERS)
