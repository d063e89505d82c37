/**
 * The bulk export's lines: a stream of matching events, one resource's events together
 * (Store.searchByResource), made into one aggregation per resource. Only the current resource's
 * events are held, so memory is bounded by the largest resource, not the export.
 *
 * The line is written straight from the stored bytes: each event's facts are read in place
 * (facts.ts), its bytes and its summary's JSON text are copied as they are, and only the members
 * of the aggregation's own are serialised. The text is the same as JSON.stringify of aggregate()'s
 * document, member for member (test/service/aggregate/lines.test.ts holds the two together).
 */
import { emptyEvent } from '../../schema/index.js'
import type { Instant } from '../../time/index.js'
import { type AggregateOptions, summarize } from './aggregate.js'
import { type EventFacts, readFacts } from './facts.js'
import { jsonText, jsonTexts } from './json-text.js'
import { resourceOf, type Resource } from './resource.js'

const EMPTY = emptyEvent()
const EMPTY_GEOIP = Buffer.from(JSON.stringify(EMPTY.geoip))
const EMPTY_NETWORK = Buffer.from(JSON.stringify(EMPTY.network))
const SUMMARY_OPEN = Buffer.from('{"summary":')
const COMMA = Buffer.from(',')
const PLUGINS_OPEN = Buffer.from('],"plugins":')
const GEOIP_OPEN = Buffer.from(',"geoip":')
const NETWORK_OPEN = Buffer.from(',"network":')

/** One aggregation's JSON text (no newline), in pieces to be written one after another: strings and stored bytes. */
export type AggregationLine = (Uint8Array | string)[]

/**
 * Makes the lines of a stream of events that come one resource after another: each event is
 * added with its seen times; the line of a resource comes out when the next resource's first
 * event is added, or at finish(). Synchronous, so an export's worker thread runs it as it is.
 */
export class LineMaker {
  private group: EventFacts[] = []
  private resource: Resource | undefined
  // The last event's ip and host: neighbours mostly share them, and so their resource. When
  // the ip alone gave the resource (a valid address), the host does not change it.
  private lastIp = ''
  private lastHost = ''
  private byIp = false

  constructor(
    private readonly now: Instant,
    private readonly options: AggregateOptions = {},
  ) {}

  /** Adds an event (its stored bytes, first and last seen); the previous resource's line when this one starts another. */
  add(json: Uint8Array, first: Instant, last: Instant): AggregationLine | undefined {
    const facts = readFacts(json)
    facts.first = first
    facts.last = last
    let done: AggregationLine | undefined
    if (this.resource === undefined || facts.ip !== this.lastIp || (!this.byIp && facts.host !== this.lastHost)) {
      const next = resourceOf(facts)
      this.lastIp = facts.ip
      this.byIp = facts.ip !== '' && next.ip !== ''
      // Compared only while the address does not give the resource (read otherwise: facts.ts reads it on demand).
      this.lastHost = this.byIp ? '' : facts.host
      if (this.resource !== undefined && next.id !== this.resource.id) {
        done = aggregationLine(this.resource, this.group, this.now, this.options)
        this.group = []
      }
      if (this.group.length === 0) this.resource = next
    }
    this.group.push(facts)
    return done
  }

  /**
   * Copies the bytes of the events held for the unfinished resource that were read from
   * `buffer`, so that it can be used again (the export thread gives batch buffers back). Each
   * event is copied once at most, however many batches its resource spans.
   */
  detach(buffer: ArrayBufferLike): void {
    this.group = this.group.map((facts) => {
      if (facts.json.buffer !== buffer) return facts
      const copy = readFacts(Buffer.from(facts.json))
      copy.first = facts.first
      copy.last = facts.last
      return copy
    })
  }

  /** The last resource's line, if any. */
  finish(): AggregationLine | undefined {
    if (this.resource === undefined || this.group.length === 0) return undefined
    const line = aggregationLine(this.resource, this.group, this.now, this.options)
    this.group = []
    this.resource = undefined
    return line
  }
}

/** An event's stored JSON with `ip` written canonically (rare: most events are stored so already). */
function respelled(json: Uint8Array, ip: string): Uint8Array {
  const event = JSON.parse(Buffer.from(json.buffer, json.byteOffset, json.byteLength).toString('utf8')) as Record<string, unknown>
  return Buffer.from(JSON.stringify({ ...event, ip }))
}

/** The aggregation line of one resource's items. */
function aggregationLine(resource: Resource, items: readonly EventFacts[], now: Instant, options: AggregateOptions): AggregationLine {
  const s = summarize(items, now, options)
  let geoip: Uint8Array | undefined
  let network: Uint8Array | undefined
  for (const item of s.sorted) {
    const place = item.place()
    if (geoip === undefined && place.hasGeoIp) geoip = place.geoip
    if (network === undefined && place.hasNetwork) network = place.network
    if (geoip !== undefined && network !== undefined) break
  }
  const ip = jsonText(resource.ip)
  const id = resource.id === resource.ip ? ip : jsonText(resource.id)
  // The constant pieces as bytes (nothing to encode), the rest as strings.
  const parts: (Uint8Array | string)[] = [
    SUMMARY_OPEN,
    s.sorted[0]!.summary,
    `,"ip":${ip},"resource_id":${id},"open_ports":${jsonTexts(s.open_ports)},"leak_count":${s.leak_count},"leak_event_count":${s.leak_event_count},"events":[`,
  ]
  for (let i = 0; i < s.sorted.length; i++) {
    if (i > 0) parts.push(COMMA)
    const item = s.sorted[i]!
    // One spelling of the address in a line: an event stored as `2001:DB8::0` is written with the resource's `2001:db8::`.
    parts.push(item.ip === '' || resource.ip === '' || item.ip === resource.ip ? item.json : respelled(item.json, resource.ip))
  }
  parts.push(PLUGINS_OPEN, jsonTexts(s.plugins), GEOIP_OPEN, geoip ?? EMPTY_GEOIP, NETWORK_OPEN, network ?? EMPTY_NETWORK)
  parts.push(`,"creation_date":"${s.creation_date}","update_date":"${s.update_date}","fresh":${s.fresh}}`)
  return parts
}
