/**
 * What an aggregation needs of one stored event, read from its canonical bytes without parsing
 * the whole document (the bulk export's hot path: a full JSON.parse cost more than the rest of an
 * aggregation together). The stores keep each event as canonical JSON: members in schema order,
 * JSON.stringify's spelling, so a `"` inside a string is always `\"` and the two bytes `,"` never
 * occur inside a string. The members needed sit at known places:
 * - the lead (`event_type` … `http.length`): read member by member, each name checked;
 * - `summary` and `time`: after `http.header`, a map of strings only, whose end is therefore the
 *   first `},"title":"` after it;
 * - `geoip` and `network`: found from the end, and taken only when what follows them closes the
 *   document (so they are top-level, not inside a member after them).
 * Bytes laid out otherwise (a member missing, another spelling) are parsed the ordinary way: the
 * answer is the same either way, only slower (test/service/aggregate/lines.test.ts).
 */
import type { Event } from '../../schema/index.js'
import type { Instant } from '../../time/index.js'
import type { Member } from './aggregate.js'
import { bytesOf, numberEnd, QUOTE, RepeatedText, startsWith, stringAt, stringEnd, textsEnd } from './json-bytes.js'
import { type Place, placeOf, placeOfObjects } from './place.js'

/**
 * The members an aggregation reads, with the stored bytes it writes as they are. `first` and
 * `last` (Member's seen times) are 0 until the reader of the store's answer sets them.
 */
export interface EventFacts extends Member {
  json: Uint8Array
  ip: string
  /** `summary` as JSON text (quotes included), as stored. */
  summary: Uint8Array
  /** `geoip` and `network` (read on demand: an aggregation needs them of one event or few). */
  place(): Place
}

/** The members from the start to `http.header`, each a string, an array of strings or a number. */
const LEAD: readonly (readonly [string, 'text' | 'texts' | 'number'])[] = [
  ['{"event_type":', 'text'],
  [',"event_source":', 'text'],
  [',"event_pipeline":', 'texts'],
  [',"event_fingerprint":', 'text'],
  [',"ip":', 'text'],
  [',"host":', 'text'],
  [',"reverse":', 'text'],
  [',"port":', 'text'],
  [',"mac":', 'text'],
  [',"vendor":', 'text'],
  [',"transport":', 'texts'],
  [',"protocol":', 'text'],
  [',"http":{"root":', 'text'],
  [',"url":', 'text'],
  [',"status":', 'number'],
  [',"length":', 'number'],
]
/** Where each kept string of the lead goes in SPANS (its quotes' indexes): event_type, event_source, event_fingerprint, ip, host, port. */
const KEPT = LEAD.map((_, i) => [0, 1, 3, 4, 5, 7].indexOf(i))
/** The kept strings' quotes, two indexes each (reused: read at once into the facts). */
const SPANS = new Int32Array(12)
const LEAK = bytesOf('"leak"')
/** Sources and ports repeat from event to event, and neighbours (one resource's events) share an ip: their strings are kept (RepeatedText). */
const SOURCES = new RepeatedText()
const PORTS = new RepeatedText()
const IPS = new RepeatedText()
const LEAD_NAMES = LEAD.map(([name]) => bytesOf(name))
/** Each lead member's kind as a number: 0 text, 1 texts, 2 number. */
const LEAD_KINDS = Uint8Array.from(LEAD, ([, kind]) => (kind === 'text' ? 0 : kind === 'texts' ? 1 : 2))
const HEADER = bytesOf(',"header":{')
const HEADER_END = bytesOf('},"title":"')
const FAVICON = bytesOf(',"favicon_hash":"')
const SUMMARY = bytesOf('},"summary":"')
const TIME = bytesOf(',"time":"')
/** The facts of a stored event (canonical JSON as the stores keep it). */
export function readFacts(json: Uint8Array): EventFacts {
  return readFactsInPlace(json) ?? parsedFacts(asBuffer(json))
}

const asBuffer = (json: Uint8Array): Buffer => (Buffer.isBuffer(json) ? json : Buffer.from(json.buffer, json.byteOffset, json.byteLength))

/** The facts read in place, or undefined when the bytes are not laid out as expected. */
export function readFactsInPlace(json: Uint8Array): EventFacts | undefined {
  const b = asBuffer(json)
  let at = 0
  for (let m = 0; m < LEAD.length; m++) {
    const name = LEAD_NAMES[m]!
    if (!startsWith(b, at, name)) return undefined
    at += name.length
    const kind = LEAD_KINDS[m]
    if (kind === 2) at = numberEnd(b, at)
    else if (kind === 1) at = textsEnd(b, at)
    else if (b[at] !== QUOTE) return undefined
    else {
      const end = stringEnd(b, at + 1)
      if (end < 0) return undefined
      const k = KEPT[m]!
      if (k >= 0) {
        SPANS[2 * k] = at
        SPANS[2 * k + 1] = end
      }
      at = end + 1
    }
    if (at < 0) return undefined
  }
  if (!startsWith(b, at, HEADER)) return undefined
  // The header map holds strings only: its end is the first `}` followed by `,"title":"`.
  at = b.indexOf(0x7d, at + HEADER.length)
  while (at >= 0 && !startsWith(b, at, HEADER_END)) at = b.indexOf(0x7d, at + 1)
  if (at < 0) return undefined
  at = stringEnd(b, at + HEADER_END.length)
  if (at < 0 || !startsWith(b, at + 1, FAVICON)) return undefined
  at = stringEnd(b, at + 1 + FAVICON.length)
  if (at < 0 || !startsWith(b, at + 1, SUMMARY)) return undefined
  const summaryAt = at + SUMMARY.length // the opening quote
  const summaryEnd = stringEnd(b, summaryAt + 1)
  if (summaryEnd < 0 || !startsWith(b, summaryEnd + 1, TIME)) return undefined
  const timeAt = summaryEnd + 1 + TIME.length
  const timeEnd = stringEnd(b, timeAt)
  if (timeEnd < 0) return undefined
  const leak = SPANS[1] === SPANS[0]! + 5 && startsWith(b, SPANS[0]!, LEAK)
  const source = SOURCES.read(b, SPANS[2]!, SPANS[3]!)
  const ip = IPS.read(b, SPANS[6]!, SPANS[7]!)
  const port = PORTS.read(b, SPANS[10]!, SPANS[11]!)
  const facts = new StoredFacts(b, leak, source, '', ip, '', port, '', undefined)
  facts.hostAt = SPANS[8]!
  facts.hostEnd = SPANS[9]!
  facts.fingerprintAt = SPANS[4]!
  facts.fingerprintEnd = SPANS[5]!
  facts.timeAt = timeAt
  facts.timeEnd = timeEnd
  facts.summaryAt = summaryAt
  facts.summaryEnd = summaryEnd + 1
  return facts
}

/**
 * Facts read in place; the host (needed when the address does not give the resource, or to tell
 * a resource's leaks apart), the time and the fingerprint (needed only to order a resource's
 * events), the summary (the newest event's only) and the place are read when first asked for.
 * A class: no closure per event.
 */
class StoredFacts implements EventFacts {
  /** The host's and the fingerprint's quotes, the time's text and the summary's JSON text in `json`, while not read yet. */
  hostAt = -1
  hostEnd = -1
  fingerprintAt = -1
  fingerprintEnd = -1
  timeAt = -1
  timeEnd = -1
  summaryAt = -1
  summaryEnd = -1
  /** When the event was first and last seen: set by the aggregation's reader (declared here so every instance has one shape). */
  first: Instant = 0n
  last: Instant = 0n
  /** Set at once when the event was parsed. */
  placed: Place | undefined
  constructor(
    readonly json: Buffer,
    readonly leak: boolean,
    readonly source: string,
    private fingerprintText: string,
    readonly ip: string,
    private hostText: string,
    readonly port: string,
    private timeText: string,
    private summaryText: Uint8Array | undefined,
  ) {}

  get summary(): Uint8Array {
    return (this.summaryText ??= this.json.subarray(this.summaryAt, this.summaryEnd))
  }

  get host(): string {
    if (this.hostAt >= 0) {
      this.hostText = stringAt(this.json, this.hostAt, this.hostEnd)
      this.hostAt = -1
    }
    return this.hostText
  }

  get time(): string {
    if (this.timeAt >= 0) {
      this.timeText = this.json.toString('latin1', this.timeAt, this.timeEnd)
      this.timeAt = -1
    }
    return this.timeText
  }

  get fingerprint(): string {
    if (this.fingerprintAt >= 0) {
      this.fingerprintText = stringAt(this.json, this.fingerprintAt, this.fingerprintEnd)
      this.fingerprintAt = -1
    }
    return this.fingerprintText
  }

  place(): Place {
    return (this.placed ??= placeOf(this.json))
  }
}

/** The facts of an event read the ordinary way (bytes laid out otherwise). */
function parsedFacts(b: Buffer): EventFacts {
  const event = JSON.parse(b.toString('utf8')) as Partial<Event>
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  const facts = new StoredFacts(
    b,
    event.event_type === 'leak',
    text(event.event_source),
    text(event.event_fingerprint),
    text(event.ip),
    text(event.host),
    text(event.port),
    text(event.time),
    Buffer.from(JSON.stringify(text(event.summary))),
  )
  facts.placed = placeOfObjects(event)
  return facts
}

