/**
 * The bulk export's lines (src/service/aggregate/lines.ts and facts.ts) are written from the stored
 * bytes without parsing whole events. They must be, byte for byte, JSON.stringify of aggregate()'s
 * document for the same events (the readable definition is the oracle), whatever the events hold:
 * generated events, and documents made to mislead a reader of bytes (member names, braces and
 * quotes inside strings, unknown members named `summary`, `time` or `geoip` at other depths,
 * escapes, non-ASCII text).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../../src/conformance/arbitraries.js'
import { parseQuery } from '../../../src/query/index.js'
import type { Event } from '../../../src/schema/index.js'
import { aggregate, resourceOf, type SeenItem } from '../../../src/service/aggregate/index.js'
import { readFacts, readFactsInPlace } from '../../../src/service/aggregate/facts.js'
import { exportLines } from '../../../src/service/aggregate/export-thread.js'
import { LineChunk } from '../../../src/service/aggregate/pieces.js'
import { MemoryStore, type SeenEvent } from '../../../src/service/index.js'
import { formatTime, parseTime } from '../../../src/time/index.js'

const NOW = (() => {
  const t = parseTime('2026-01-01T00:00:00Z')
  if (!t.ok) throw new Error(t.reason)
  return t.value
})()

/** Ways to mislead a reader of the bytes; each keeps the event valid for the store. */
const MISLEADING: ((e: Record<string, any>) => void)[] = [
  (e) => (e.http.header = { summary: '},"title":"x', time: '"', title: '\\', zz: '}}]]{{' }),
  (e) => (e.http.x = { a: {}, summary: 'not this one', time: '2020-01-01T00:00:00Z' }),
  (e) => (e.zzz = { a: 1, geoip: { city_name: 'Deeper' }, network: { asn: 1 } }),
  (e) => (e.summary = `"},"summary":"x","time":"2020-01-01T00:00:00Z",\\`),
  (e) => (e.summary = 'Café – 東京 🙂 \u0001\u001f'),
  (e) => (e.event_pipeline = ['"],"', 'a\\', '']),
  (e) => (e.event_source = 'plugin "quoted" \\ é'),
  (e) => (e.geoip = { ...e.geoip, extra: { network: {}, geoip: {} } }),
  (e) => (e.geoip.location = { ...e.geoip.location, alt: 5 }),
  (e) => (e.network = { ...e.network, extra: [{ a: '}' }] }),
  (e) => (e.geoip = { continent_name: '', region_iso_code: '', city_name: '', country_iso_code: '', country_name: '', region_name: '', location: { lat: 0, lon: 0.5 } }),
  (e) => (e.network = { organization_name: '', asn: 0, network: '' }),
  (e) => (e.http.title = ',"favicon_hash":"'),
  (e) => (e.host = 'Ünïcode.example'),
]

/** Leak events on a few resources (so groups hold several), some of them misleading. */
const eventsArb = fc.array(
  fc.tuple(
    strictEvent({ type: 'leak', ip: fc.constantFrom('192.0.2.1', '::ffff:192.0.2.1', '2001:db8::1', ''), host: fc.constantFrom('', 'a.example.com', 'B.example.com.', '192.0.2.9') }),
    fc.subarray(MISLEADING.map((_, i) => i)),
    fc.bigInt({ min: 1_577_836_800_000_000_000n, max: 1_767_225_600_000_000_000n }),
  ),
  { minLength: 1, maxLength: 10 },
)

async function exportOf(events: Record<string, unknown>[]): Promise<{ seen: SeenEvent[]; lines: string[] }> {
  const store = new MemoryStore()
  const r = await store.ingest(events)
  expect(r.rejected).toEqual([])
  const query = parseQuery('*', { scope: 'leak' })
  const seen: SeenEvent[] = []
  for await (const s of store.searchByResource(query)) seen.push(s)
  const lines: string[] = []
  // A small export: its lines are made in this thread (no worker: `() => undefined`).
  for await (const parts of exportLines(store.searchByResource(query), NOW, () => undefined)) {
    if (parts instanceof LineChunk) throw new Error('a small export went to the export thread')
    lines.push(parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('utf8'))).join(''))
  }
  return { seen, lines }
}

/** The oracle: the store's events parsed, grouped by resource in the order they came, aggregate()d. */
function expected(seen: SeenEvent[]): string[] {
  const out: string[] = []
  let group: SeenItem[] = []
  let current: string | undefined
  for (const s of seen) {
    const event = JSON.parse(Buffer.from(s.json).toString('utf8')) as Event
    const id = resourceOf(event).id
    if (current !== undefined && id !== current) {
      out.push(JSON.stringify(aggregate(group, NOW)))
      group = []
    }
    current = id
    group.push({ event, firstSeen: s.firstSeen, lastSeen: s.lastSeen })
  }
  if (group.length > 0) out.push(JSON.stringify(aggregate(group, NOW)))
  return out
}

describe('bulk export lines', () => {
  it('are JSON.stringify(aggregate()) of the same events, byte for byte (property)', async () => {
    await fc.assert(
      fc.asyncProperty(eventsArb, async (rows) => {
        const events = rows.map(([event, misleading, time]) => {
          const e = structuredClone(event) as Record<string, any>
          e.time = formatTime(time)
          for (const i of misleading) MISLEADING[i]!(e)
          return e
        })
        // One more sighting of the first event, earlier: its first seen moves, its last stays.
        events.push({ ...structuredClone(events[0]!), time: '2019-06-01T00:00:00.5Z' })
        const { seen, lines } = await exportOf(events)
        expect(lines).toEqual(expected(seen))
      }),
      { numRuns: 150 },
    )
  })

  it('read the facts of every event as its parsed members, in place when the bytes are canonical (property)', async () => {
    await fc.assert(
      fc.asyncProperty(eventsArb, async (rows) => {
        const events = rows.map(([event, misleading]) => {
          const e = structuredClone(event) as Record<string, any>
          for (const i of misleading) MISLEADING[i]!(e)
          return e
        })
        const { seen } = await exportOf(events)
        for (const s of seen) {
          const event = JSON.parse(Buffer.from(s.json).toString('utf8')) as Event & Record<string, any>
          const facts = readFacts(s.json)
          expect([facts.leak, facts.source, facts.fingerprint, facts.ip, facts.host, facts.port, facts.time]).toEqual([
            event.event_type === 'leak',
            event.event_source,
            event.event_fingerprint,
            event.ip,
            event.host,
            event.port,
            event.time,
          ])
          expect(JSON.parse(Buffer.from(facts.summary).toString('utf8'))).toBe(event.summary)
          const place = facts.place()
          expect(JSON.parse(Buffer.from(place.geoip).toString('utf8'))).toEqual(event.geoip)
          expect(JSON.parse(Buffer.from(place.network).toString('utf8'))).toEqual(event.network)
          // Only an unknown member inside `http` moves `summary` from where a reader of bytes looks.
          if ((event.http as Record<string, unknown>).x === undefined) expect(readFactsInPlace(s.json)).toBeDefined()
        }
      }),
      { numRuns: 150 },
    )
  })

  it('fall back to parsing for bytes laid out otherwise, with the same answer', () => {
    const event = { event_source: 'x', event_type: 'leak', ip: '192.0.2.1', summary: 's', time: '2024-01-01T00:00:00Z' }
    const json = Buffer.from(JSON.stringify(event))
    expect(readFactsInPlace(json)).toBeUndefined()
    const facts = readFacts(json)
    expect([facts.leak, facts.source, facts.ip, facts.time, Buffer.from(facts.summary).toString()]).toEqual([true, 'x', '192.0.2.1', '2024-01-01T00:00:00Z', '"s"'])
    expect(facts.place().hasGeoIp).toBe(false)
  })
})
