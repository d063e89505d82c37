/**
 * Turning an ingested document into what a store keeps: normalise (lenient → strict),
 * validate strictly, serialise canonically, and pull out the members the indexes need.
 * Shared by every store implementation so they all accept and refuse the same documents.
 *
 * JSON text that is already canonical (isCanonicalText: byte for byte what normalising and
 * serialising would write, a form stricter than the strict profile) is kept as it is, without
 * being parsed: that is most of a bulk load, and parsing is the cost that dominates ingest.
 */
import { guarded, parseRecord, tooDeep, valueTooDeep } from '../../jsonl/index.js'
import { isCanonical, normalize, resolveOptions, serializeEvent } from '../../normalize/index.js'
import type { Event } from '../../schema/index.js'
import { type Instant, parseTime } from '../../time/index.js'
import { isStrictValid, type Issue, validate } from '../../validate/index.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import { countryOf, storable } from '../../query/index.js'
import { canonicalSearchFields, canonicalTextFields } from './canonical-fields.js'

/**
 * An empty event_fingerprint is computed (version 1): the fingerprint is part of an event's
 * identity, and events without one would otherwise all be duplicates of each other.
 */
const OPTIONS = resolveOptions({ fingerprint: 'missing' })

/** One document as JSON text, for Store.ingest: parsed only when it is not already canonical. */
export class JsonText {
  private decoded: string | undefined

  /**
   * @param text the document's JSON text
   * @param utf8 the same text as UTF-8 bytes, when the caller has them (a store may keep them
   *   as they are instead of encoding the text again); they must decode to exactly `text`
   */
  constructor(
    text: string,
    readonly utf8?: Uint8Array,
  ) {
    this.decoded = text
  }

  /**
   * A document known by its bytes only, which must be valid UTF-8: its text is decoded when
   * first read. A large ingest hands such bytes to its workers and stores them without ever
   * decoding them on the main thread.
   */
  static ofBytes(utf8: Uint8Array): JsonText {
    const doc = new JsonText('', utf8)
    doc.decoded = undefined
    return doc
  }

  /** The document's JSON text. */
  get text(): string {
    return (this.decoded ??= Buffer.from(this.utf8!.buffer, this.utf8!.byteOffset, this.utf8!.byteLength).toString('utf8'))
  }
}

export interface Prepared {
  ok: true
  /** The event as an object; absent when it was taken from canonical text (parse `json` if needed). */
  event?: Event
  json: string
  /** `json` as UTF-8 bytes, when they came with the input. */
  utf8?: Uint8Array
  /** `utf8`'s whole buffer is the result's own (a worker's batch, moved back): a store may keep it rather than copy. */
  owned?: boolean
  leak: boolean
  /** Canonical IP (from `ip`, or from `host` when that is an IP literal); '' when none. */
  ip: string
  /** Canonical host name; '' when `host` is empty or not a domain name. */
  name: string
  time: Instant
  /** `leak.severity` as given ('' for services and leaks without one). */
  severity: string
  /** Identity for de-duplication: fingerprint, host, ip, port, source. */
  identity: string
  /** What search indexes (each as storable() gives it: what PostgreSQL can hold). */
  source: string
  fingerprint: string
  port: string
  /** geoip's ISO code in upper case and name in lower case (ASCII letters): query/evaluate.ts countryOf. */
  countryCode: string
  countryName: string
  /** network.asn. */
  asn: number
}

export type PrepareResult = Prepared | { ok: false; errors: Issue[] }

/**
 * `json` of a prepare worker's result whose JSON is the very text it was sent (no event
 * JSON is empty): the receiver puts its own text back, or, when it has the document's UTF-8
 * bytes, leaves `json` so and sets `utf8` (then read the text with jsonOf()).
 */
export const KEPT_AS_SENT = ''

/** The JSON text of a prepared document (decoded from `utf8` when `json` is KEPT_AS_SENT). */
export function jsonOf(p: Prepared): string {
  if (p.json === KEPT_AS_SENT && p.utf8 !== undefined) p.json = Buffer.from(p.utf8.buffer, p.utf8.byteOffset, p.utf8.byteLength).toString('utf8')
  return p.json
}

/** Normalises and validates a document (a parsed value, or a JsonText). */
export function prepare(doc: unknown): PrepareResult {
  // A bug of ours on one document refuses that document only (jsonl/guard.ts).
  return guarded(() => prepareOne(doc), (issue) => ({ ok: false, errors: [issue] }))
}

function prepareOne(doc: unknown): PrepareResult {
  if (!(doc instanceof JsonText)) return valueTooDeep(doc) ? { ok: false, errors: [tooDeep()] } : prepareValue(doc)
  const fast = prepareCanonicalText(doc.text)
  if (fast !== null) {
    if (fast.ok) fast.utf8 = doc.utf8
    return fast
  }
  const parsed = parseRecord(doc.text) // refuses a document nested deeper than MAX_DEPTH
  if ('error' in parsed) return { ok: false, errors: [parsed.error] }
  return prepareValue(parsed.value)
}

function prepareValue(doc: unknown): PrepareResult {
  let event: Event
  if (isCanonical(doc, OPTIONS)) event = doc as Event
  else {
    const result = normalize(doc, OPTIONS)
    if (!result.ok) return { ok: false, errors: result.errors }
    // Raw credential bytes that are not base64 are refused rather than guessed at: LeakIX's Go
    // client cannot read them, and what they stand for is the sender's to say.
    const raw = result.warnings.find((w) => w.code === 'bad_base64')
    if (raw !== undefined) return { ok: false, errors: [{ ...raw, message: `${raw.message.replace(/: normalize .*$/, '')}: the service keeps bytes as standard base64 (l9kit normalize encodes such text as its UTF-8 bytes)` }] }
    event = result.event
  }
  if (!isStrictValid(event)) return { ok: false, errors: validate(event, { profile: 'strict' }).errors }
  const parsed = parseTime(event.time)
  if (!parsed.ok) return { ok: false, errors: [{ code: 'bad_timestamp', pointer: '/time', message: parsed.reason }] }
  const json = serializeEvent(event)
  const search = { ...countryOf(event.geoip as unknown as Record<string, unknown>), asn: event.network.asn }
  return finish(json, event.event_type, event.event_source, event.event_fingerprint, event.ip, event.host, event.port, parsed.value, event.leak.severity, search, event)
}

function prepareCanonicalText(text: string): PrepareResult | null {
  const f = canonicalTextFields(text) // null unless canonical (isCanonicalText with `keep`)
  // An empty fingerprint must be computed: the long way.
  if (f === null || f.fingerprint === '') return null
  const parsed = parseTime(f.time)
  const s = canonicalSearchFields(text)
  if (!parsed.ok || s === null) return null
  const search = { ...countryOf({ country_iso_code: s.countryCode, country_name: s.countryName }), asn: s.asn }
  return finish(text, f.eventType, f.source, f.fingerprint, f.ip, f.host, f.port, parsed.value, f.severity, search, undefined)
}

/** The event types the lookups serve: `service` events in `Services`, `leak` events in `Leaks`. */
export const SERVED_TYPES: readonly string[] = ['service', 'leak']

function finish(
  json: string,
  eventType: string,
  source: string,
  fingerprint: string,
  rawIp: string,
  host: string,
  port: string,
  time: Instant,
  severity: string,
  search: { code: string; name: string; asn: number },
  event: Event | undefined,
): PrepareResult {
  if (!SERVED_TYPES.includes(eventType)) {
    // Scanner output such as `synack` has no place in a lookup result: refused, with the reason.
    const message = `event_type '${eventType}' is not served: lookups return 'service' events (Services) and 'leak' events (Leaks)`
    return { ok: false, errors: [{ code: 'unknown_value', pointer: '/event_type', message, expected: 'service | leak', found: eventType }] }
  }
  const ipFromIp = rawIp === '' ? null : canonicalIp(rawIp)
  const ip = ipFromIp ?? (rawIp === '' && host !== '' ? canonicalIp(host) : null) ?? ''
  const name = host === '' ? '' : (canonicalDomain(host) ?? '')
  const identity = identityFrom(fingerprint, name || host, ipFromIp ?? rawIp, port, source)
  return {
    ok: true,
    event,
    json,
    leak: eventType === 'leak',
    ip,
    name,
    time,
    severity,
    identity,
    source: storable(source),
    fingerprint: storable(fingerprint),
    port: storable(port),
    countryCode: search.code,
    countryName: search.name,
    asn: search.asn,
  }
}

const identityFrom = (fingerprint: string, host: string, ip: string, port: string, source: string) =>
  `${fingerprint}\n${host}\n${ip}\n${port}\n${source}`

/** The members that make two events "the same event", joined (host and ip canonical). */
export function identityOf(event: Event): string {
  const name = event.host === '' ? '' : canonicalDomain(event.host)
  const ip = event.ip === '' ? '' : canonicalIp(event.ip)
  return identityFrom(event.event_fingerprint, name || event.host, ip ?? event.ip, event.port, event.event_source)
}
