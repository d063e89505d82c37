/**
 * Store cases for /api/plugins and the live stream, run by the shared suite (store-cases.ts) on
 * every store: plugin counts by window (against a model of plugin-windows.ts, property), each new
 * event counted once, and Store.onNewEvent telling listeners about new events only.
 */
import fc from 'fast-check'
import { expect, it } from 'vitest'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import type { Event } from '../../../src/schema/index.js'
import { type NewEvent, nowInstant, type PluginCount, type StoreFactory } from '../../../src/service/index.js'
import { hourOf, minuteOf, NS_PER_HOUR, NS_PER_MINUTE, windowsAt } from '../../../src/service/store/plugin-windows.js'
import { formatTime, type Instant } from '../../../src/time/index.js'
import { makeEvent } from '../support.js'

const DAY = 24n * NS_PER_HOUR
const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')

/** What the counts must be: each distinct event once, by the time of its first copy, per window at `now`. */
function model(events: { source: string; time: Instant }[], now: Instant): PluginCount[] {
  const w = windowsAt(now)
  const within = (x: number, [from, to]: [number, number]) => x >= from && x <= to
  const names = [...new Set(events.map((e) => e.source).filter((s) => s !== ''))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  return names.map((name) => {
    const mine = events.filter((e) => e.source === name)
    return {
      name,
      count1h: mine.filter((e) => within(minuteOf(e.time), w.minutes)).length,
      count24h: mine.filter((e) => within(hourOf(e.time), w.hours24h)).length,
      count7d: mine.filter((e) => within(hourOf(e.time), w.hours7d)).length,
    }
  })
}

/** Waits (bounded, generously for a busy machine) until `done()` holds: PostgreSQL tells listeners after commit, through the database. */
async function until(done: () => boolean, ms = 90_000): Promise<void> {
  const end = Date.now() + ms
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
}

export function pluginAndFeedCases(makeStore: StoreFactory): void {
  it('counts each plugin’s new events by window; duplicates and re-loads add nothing; unknown names are null', async () => {
    const store = makeStore()
    const now = nowInstant()
    const at = (ago: bigint) => formatTime(now - ago)
    const docs = [
      makeEvent({ event_source: 'Alpha', ip: '192.0.2.1', time: at(5n * NS_PER_MINUTE) }),
      makeEvent({ event_source: 'Alpha', ip: '192.0.2.2', time: at(3n * NS_PER_HOUR) }),
      makeEvent({ event_source: 'Alpha', ip: '192.0.2.3', time: at(3n * DAY) }),
      makeEvent({ event_source: 'Alpha', ip: '192.0.2.4', time: at(9n * DAY) }),
      makeEvent({ event_source: 'Beta', ip: '192.0.2.5', time: at(30n * DAY) }),
      makeEvent({ event_source: '', ip: '192.0.2.6', time: at(0n) }),
    ]
    await store.ingest(docs)
    // The same documents again, and a later observation of one: duplicates, not new events.
    await store.ingest([...docs, { ...docs[2], time: at(NS_PER_MINUTE) }])
    const query = nowInstant()
    const expected = [
      { name: 'Alpha', count1h: 1, count24h: 2, count7d: 3 },
      { name: 'Beta', count1h: 0, count24h: 0, count7d: 0 },
    ]
    expect(await store.plugins(query)).toEqual(expected)
    expect(await store.plugin('Alpha', query)).toEqual(expected[0])
    expect(await store.plugin('Beta', query)).toEqual(expected[1])
    expect(await store.plugin('Gamma', query)).toBeNull()
    expect(await store.plugin('', query)).toBeNull()
    // A week later nothing is in any window, and the plugins are still listed.
    const later = await store.plugins(query + 8n * DAY)
    expect(later.map((p) => [p.name, p.count1h + p.count24h + p.count7d])).toEqual([['Alpha', 0], ['Beta', 0]])
  })

  it('agrees with the windows’ model for any mix of times and plugins, names such as __proto__ included (property)', async () => {
    const offset = fc.oneof(
      fc.bigInt({ min: -2n * NS_PER_HOUR, max: 2n * NS_PER_HOUR }),
      fc.bigInt({ min: -8n * DAY, max: 8n * DAY }),
      fc.constantFrom(0n, -59n * NS_PER_MINUTE, -60n * NS_PER_MINUTE, -24n * NS_PER_HOUR, -167n * NS_PER_HOUR, -168n * NS_PER_HOUR),
    )
    const doc = fc.record({ source: fc.constantFrom('a', 'b', '__proto__', 'é', '\u{1F600}', '\uFFFD'), ip: fc.constantFrom('192.0.2.1', '192.0.2.2', '2001:db8::1'), offset })
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(doc, { maxLength: 6 }), { minLength: 1, maxLength: 3 }), async (batches) => {
        const store = makeStore()
        const base = nowInstant()
        const firsts = new Map<string, { source: string; time: Instant }>()
        for (const batch of batches) {
          const events = batch.map((d) => makeEvent({ event_source: d.source, ip: d.ip, event_fingerprint: 'f'.repeat(64), time: formatTime(base + d.offset) }))
          await store.ingest(events)
          batch.forEach((d) => {
            const key = `${d.source}|${d.ip}`
            if (!firsts.has(key)) firsts.set(key, { source: d.source, time: base + d.offset })
          })
        }
        const now = nowInstant()
        const counts = await store.plugins(now)
        expect(counts).toEqual(model([...firsts.values()], now))
        for (const c of counts) expect(c.count1h <= c.count24h && c.count24h <= c.count7d).toBe(true)
      }),
      { numRuns: 25 },
    )
  })

  it('tells new-event listeners about new events only, with their stored bytes, until stopped', async () => {
    const store = makeStore()
    const heard: NewEvent[] = []
    const feed = store.onNewEvent((item) => heard.push({ ...item, bytes: Uint8Array.from(item.bytes) }))
    await feed.ready
    const service = makeEvent({ ip: '192.0.2.40', summary: 'svc' })
    const leak = makeEvent({ ip: '192.0.2.41', event_type: 'leak', summary: 'leak', leak: { ...makeEvent({}).leak, severity: 'high' } })
    await store.ingest([service, leak, service])
    await until(() => heard.length >= 2)
    await store.ingest([service]) // a duplicate: nothing new
    const extra = makeEvent({ ip: '192.0.2.42', summary: 'after' })
    await store.ingest([extra])
    await until(() => heard.length >= 3)
    expect(heard.map((h) => [h.leak, h.event().summary])).toEqual([
      [false, 'svc'],
      [true, 'leak'],
      [false, 'after'],
    ])
    const stored = await store.host('192.0.2.41')
    expect(text(heard[1]!.bytes)).toBe(text(stored!.leaks[0]!))
    const canonical = normalize(extra, { fingerprint: 'missing' })
    expect(canonical.ok && serializeEvent(canonical.event)).toBe(text(heard[2]!.bytes))
    feed.stop()
    await store.ingest([makeEvent({ ip: '192.0.2.43', summary: 'unheard' })])
    const other = store.onNewEvent(() => undefined) // a fresh listener proves the store still tells
    await other.ready
    await new Promise((r) => setTimeout(r, 100))
    other.stop()
    expect(heard).toHaveLength(3)
    expect((heard[0]!.event() as Event).ip).toBe('192.0.2.40')
  })
}
