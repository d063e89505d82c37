/**
 * aggregate(): the example of the schema (docs/format.md, OpenAPI) is what it makes; its members
 * follow from the events for any input (property); the format owner's Python reading rules
 * (test/languages/python/aggregation_reader.py, written from docs/specification.md) read every
 * aggregation it makes, and refuse a null or missing member (so the reader can fail).
 */
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../../src/conformance/arbitraries.js'
import { normalize } from '../../../src/normalize/index.js'
import { type Event, exampleAggregation } from '../../../src/schema/index.js'
import { aggregate, FRESH_WINDOW, resourceOf, type SeenItem } from '../../../src/service/aggregate/index.js'
import { type Member, summarize } from '../../../src/service/aggregate/aggregate.js'
import { canonicalDomain } from '../../../src/service/names/domain.js'
import { formatTime, parseTime } from '../../../src/time/index.js'
import { validateDocument } from '../../../src/validate/index.js'
import { LANGUAGES, needs, works } from '../../languages/support.js'

const at = (text: string) => {
  const parsed = parseTime(text)
  if (!parsed.ok) throw new Error(parsed.reason)
  return parsed.value
}
const seen = (event: Event, first = event.time, last = event.time): SeenItem => ({ event, firstSeen: first, lastSeen: last })

/** As a store keeps an event: canonical (software.fingerprint always written, facts.md). */
const stored = (event: Event): Event => {
  const r = normalize(event)
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}
/** Events of a few addresses and names (so resources hold several), times 2020–2026. */
const eventArb = strictEvent({
  type: fc.constantFrom('service', 'leak'),
  ip: fc.constantFrom('192.0.2.1', '::ffff:192.0.2.1', '2001:db8::1', '2001:db8:0:0::1', ''),
  host: fc.constantFrom('', 'a.example.com', 'B.example.com.', '192.0.2.1'),
})
const itemArb = fc
  .tuple(eventArb, fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.bigInt({ min: 1_577_836_800_000_000_000n, max: 1_767_225_600_000_000_000n }))
  .map(([event, back, last]) => {
    const e = stored({ ...event, time: formatTime(last) })
    return seen(e, formatTime(last - back), formatTime(last))
  })
/** Items grouped by resource, as the bulk export groups them. */
const groupsArb = fc.array(itemArb, { minLength: 1, maxLength: 12 }).map((items) => {
  const groups = new Map<string, SeenItem[]>()
  for (const item of items) {
    const id = resourceOf(item.event).id
    groups.set(id, [...(groups.get(id) ?? []), item])
  }
  return [...groups.values()]
})
const NOW = at('2026-01-01T00:00:00Z')

describe('aggregate()', () => {
  it('makes the schema’s example from its events', () => {
    const example = exampleAggregation()
    const [git, dotenv] = example.events
    const made = aggregate([seen(dotenv!), seen(git!)], at('2026-01-04T00:00:00Z'))
    expect(made).toEqual(example)
    expect(JSON.stringify(made)).toBe(JSON.stringify(example)) // member order too
  })

  it('gives every member from the events, whatever their order (property)', () => {
    fc.assert(
      fc.property(groupsArb, fc.infiniteStream(fc.integer()), (groups, shuffles) => {
        for (const items of groups) {
          const made = aggregate(items, NOW)
          expect(validateDocument('aggregation', made).errors).toEqual([])
          const shuffled = [...items].sort(() => shuffles.next().value % 3)
          expect(aggregate(shuffled, NOW)).toEqual(made)
          expect(made.events).toHaveLength(items.length)
          const times = made.events.map((e) => at(e.time))
          expect(times.every((t, i) => i === 0 || times[i - 1]! >= t)).toBe(true)
          expect(made.summary).toBe(made.events[0]!.summary)
          expect(made.leak_event_count).toBe(items.filter((i) => i.event.event_type === 'leak').length)
          expect(made.leak_count).toBeLessThanOrEqual(made.leak_event_count)
          expect(made.leak_count > 0).toBe(made.leak_event_count > 0)
          expect(new Set(made.open_ports)).toEqual(new Set(items.map((i) => i.event.port).filter((p) => p !== '')))
          expect(made.plugins).toEqual([...new Set(items.map((i) => i.event.event_source).filter((s) => s !== ''))].sort())
          expect(at(made.creation_date)).toBe(items.map((i) => at(i.firstSeen)).reduce((a, b) => (b < a ? b : a)))
          expect(at(made.update_date)).toBe(items.map((i) => at(i.lastSeen)).reduce((a, b) => (b > a ? b : a)))
          expect(made.fresh).toBe(NOW - at(made.update_date) <= FRESH_WINDOW)
          expect(made.resource_id).toBe(resourceOf(items[0]!.event).id)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('counts a leak once however many events observed it, and numbers ports as numbers', () => {
    const base = exampleAggregation().events[1]!
    const leak = (port: string, fingerprint: string, host = base.host) => seen({ ...base, port, host, event_fingerprint: fingerprint.repeat(64) })
    const made = aggregate([leak('9200', 'a'), leak('9200', 'b'), leak('80', 'c'), leak('80', 'd', 'WWW.Example.COM.'), leak('10000', 'e')], NOW)
    expect([made.leak_count, made.leak_event_count]).toEqual([3, 5])
    expect(made.open_ports).toEqual(['80', '9200', '10000'])
  })

  it('counts a few members (compared pair by pair) as it counts many (in sets), and as the definition says (property)', () => {
    // Values that collide when joined carelessly (a source or host holding the separator), hosts
    // equal only once canonical, equal times (the order then falls to fingerprint, host, port, source).
    const memberArb = fc.record({
      leak: fc.boolean(),
      source: fc.constantFrom('ElasticSearchOpenPlugin', 'a\nb', 'a', ''),
      fingerprint: fc.constantFrom('a', 'b'),
      host: fc.constantFrom('www.example.com', 'WWW.Example.com.', 'b\nc', 'c', '', 'x..bad'),
      port: fc.constantFrom('80', '080', ''),
      time: fc.constantFrom('2024-01-05T10:00:00Z', '2024-01-05T10:00:00.5Z', '2023-12-31T23:59:59Z'),
      first: fc.bigInt({ min: 1n, max: 50n }),
      last: fc.bigInt({ min: 50n, max: 100n }),
    })
    const leakId = (m: Member) => JSON.stringify([m.source, m.host === '' ? '' : (canonicalDomain(m.host) ?? m.host), m.port])
    fc.assert(
      fc.property(fc.array(memberArb, { minLength: 2, maxLength: 12 }), (drawn) => {
        // One fingerprint each (so the order is total and each member's two copies sit together below), in a shuffled order.
        const members = drawn.map((m, i) => ({ ...m, fingerprint: `${m.fingerprint}${(i * 5) % 13}` }))
        const few = summarize(members, 100n)
        expect(few.leak_count).toBe(new Set(members.filter((m) => m.leak).map(leakId)).size)
        expect(few.leak_event_count).toBe(members.filter((m) => m.leak).length)
        expect(new Set(few.sorted)).toEqual(new Set(members))
        // Twice each member: as many leaks, ports and plugins, each member twice in the same order.
        const twice = summarize([...members, ...members], 100n)
        expect({ ...twice, sorted: twice.sorted.filter((_, i) => i % 2 === 0), leak_event_count: twice.leak_event_count / 2 }).toEqual(few)
      }),
      { numRuns: 500 },
    )
  })

  it('is fresh up to 7 days after the last sighting, not a nanosecond more', () => {
    const event = exampleAggregation().events[0]!
    const last = at(event.time)
    expect(aggregate([seen(event)], last + FRESH_WINDOW).fresh).toBe(true)
    expect(aggregate([seen(event)], last + FRESH_WINDOW + 1n).fresh).toBe(false)
    expect(aggregate([seen(event)], last - 1n).fresh).toBe(true)
  })

  it('takes geoip and network from the newest event that has them', () => {
    const [newer, older] = exampleAggregation().events
    const bare = { ...newer!, geoip: { ...newer!.geoip, continent_name: '', region_iso_code: '', city_name: '', country_iso_code: '', country_name: '', region_name: '', location: { lat: 0, lon: 0 } } }
    const made = aggregate([seen(bare), seen({ ...older!, geoip: { ...older!.geoip, city_name: 'Older' } })], NOW)
    expect(made.geoip.city_name).toBe('Older')
    expect(made.network).toEqual(newer!.network)
  })

  it('refuses no events, and events of two resources', () => {
    const event = exampleAggregation().events[0]!
    expect(() => aggregate([], NOW)).toThrow(RangeError)
    expect(() => aggregate([seen(event), seen({ ...event, ip: '198.51.100.1' })], NOW)).toThrow(/two resources/)
    // A host name on the address is the same resource; an address-less event is its name's.
    expect(resourceOf({ ip: '', host: 'Shop.Example.com.' })).toEqual({ ip: '', id: 'shop.example.com' })
    expect(resourceOf({ ip: '', host: '::FFFF:192.0.2.7' })).toEqual({ ip: '192.0.2.7', id: '192.0.2.7' })
  })
})

const PYTHON = '/usr/bin/python3'
const READER = join(LANGUAGES, 'python', 'aggregation_reader.py')
const readLines = (lines: string[]) => {
  const run = spawnSync(PYTHON, [READER], { input: lines.join('\n') + '\n', encoding: 'utf8', timeout: 60_000 })
  expect(run.stderr).toBe('')
  return run.stdout.split('\n').slice(0, -1)
}

needs('the format owner’s Python reading rules read every aggregation', works(PYTHON, ['--version']), `${PYTHON} (Debian python3)`, () => {
  it('reads 300 generated aggregations and the example', () => {
    const made = fc.sample(groupsArb, { numRuns: 60, seed: 31 }).flat().map((items) => aggregate(items, NOW))
    const lines = [exampleAggregation(), ...made].map((a) => JSON.stringify(a))
    expect(lines.length).toBeGreaterThan(60)
    const out = readLines(lines)
    expect(out.filter((l) => !l.startsWith('ok '))).toEqual([])
    expect(out[0]).toBe('ok 192.0.2.10 2')
  })

  it('refuses a member that is null or missing (the rules it checks us by)', () => {
    const example = exampleAggregation() as unknown as Record<string, unknown>
    const { fresh: _f, ...noFresh } = example
    const out = readLines([
      JSON.stringify({ ...example, summary: null }),
      JSON.stringify(noFresh),
      JSON.stringify({ ...example, open_ports: null }),
      JSON.stringify({ ...example, leak_count: '2' }),
      JSON.stringify({ ...example, events: [{ ...(example.events as Event[])[0], service: { credentials: (example.events as Event[])[0]!.service.credentials, software: { name: '', version: '', os: '', modules: null } } }] }),
    ])
    expect(out).toEqual([
      'error: /summary: null where the type is str',
      'error: /fresh: member is missing',
      expect.stringMatching(/^error: \/open_ports: null/),
      'error: /leak_count: expected int, found str',
      'error: /events/0/service/software/fingerprint: member is missing',
    ])
  })
})
