/**
 * The shared case suite every Store implementation must pass (as Hono runs one suite over all
 * its routers): `storeCases('name', () => new MyStore())` in a test file.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { type Event, exampleProtocolEvent } from '../../../src/schema/index.js'
import { JsonText, type Lookup, type SeenEvent, type SeenLookup, type StoreFactory } from '../../../src/service/index.js'
import { canonicalIp } from '../../../src/service/names/ip.js'
import { daysOpen } from '../../../src/service/web/days-open.js'
import { formatTime, parseTime } from '../../../src/time/index.js'
import { isStrictValid } from '../../../src/validate/index.js'
import { makeEvent } from '../support.js'
import { searchCases } from './search-cases.js'
import { countCases } from './count-cases.js'
import { pluginAndFeedCases } from './plugin-feed-cases.js'

/** The stored bytes of an event as text. */
const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
const parsed = (l: Lookup | null) => ({
  services: (l?.services ?? []).map((j) => JSON.parse(text(j)) as Event),
  leaks: (l?.leaks ?? []).map((j) => JSON.parse(text(j)) as Event),
})
const hostsOf = (l: Lookup | null) => {
  const p = parsed(l)
  return [...p.services, ...p.leaks].map((e) => e.host).sort()
}
const normalizeOk = (doc: unknown): Event => {
  const r = normalize(doc, { fingerprint: 'missing' })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}
const summaries = (l: Lookup | null) => {
  const p = parsed(l)
  return [...p.services, ...p.leaks].map((e) => e.summary).sort()
}

/** A SeenLookup as sortable `summary first last` lines per list (bytes checked separately). */
const seenLines = (l: SeenLookup | null) => {
  const lines = (list: readonly SeenEvent[]) => list.map((e) => `${(JSON.parse(text(e.json)) as Event).summary} ${e.firstSeen} ${e.lastSeen}`).sort()
  return { services: lines(l?.services ?? []), leaks: lines(l?.leaks ?? []) }
}
const seenBytes = (l: SeenLookup | null) => ({ services: (l?.services ?? []).map((e) => text(e.json)).sort(), leaks: (l?.leaks ?? []).map((e) => text(e.json)).sort() })
const lookupBytes = (l: Lookup | null) => ({ services: (l?.services ?? []).map(text).sort(), leaks: (l?.leaks ?? []).map(text).sort() })
/** Canonical times between 1999 and 2031, with any nanoseconds. */
const canonicalTimeArb = fc.bigInt({ min: 915_148_800_000_000_000n, max: 1_924_991_999_999_999_999n }).map(formatTime)

export function storeCases(name: string, makeStore: StoreFactory): void {
  describe(`Store cases: ${name}`, () => {
    describe('ingest', () => {
      it('stores valid documents and reports each refused one with its position and reasons', async () => {
        const store = makeStore()
        const result = await store.ingest([
          makeEvent({ ip: '192.0.2.1' }),
          { event_type: 'service', time: 'yesterday' },
          'not an object',
          makeEvent({ ip: '192.0.2.2' }),
        ])
        expect(result.accepted).toBe(2)
        expect(result.duplicates).toBe(0)
        expect(result.rejected.map((r) => r.index)).toEqual([1, 2])
        expect(result.rejected[0]!.errors[0]).toMatchObject({ code: 'bad_timestamp', pointer: '/time' })
        expect(result.rejected[1]!.errors[0]).toMatchObject({ code: 'not_object' })
        expect(store.size).toBe(2)
      })

      it('normalises lenient documents and keeps the canonical JSON', async () => {
        const store = makeStore()
        const lenient = { event_type: 'service', event_source: 'x', ip: '192.0.2.5', port: 8080, time: '2024-01-02T04:05:06+01:00', tags: null }
        await store.ingest([lenient])
        const json = text((await store.host('192.0.2.5'))!.services[0]!)
        const event = JSON.parse(json) as Event
        expect(isStrictValid(event)).toBe(true)
        expect(event.port).toBe('8080')
        expect(event.time).toBe('2024-01-02T03:05:06Z')
        const expected = normalize(lenient, { fingerprint: 'missing' })
        expect(expected.ok && serializeEvent(expected.event)).toBe(json)
      })

      it('computes an empty fingerprint, so events that differ only in summary stay apart', async () => {
        const store = makeStore()
        const a = makeEvent({ ip: '192.0.2.9', port: '80', summary: 'one' })
        const b = makeEvent({ ip: '192.0.2.9', port: '80', summary: 'two' })
        const result = await store.ingest([a, b])
        expect(result).toMatchObject({ accepted: 2, duplicates: 0 })
        const events = parsed(await store.host('192.0.2.9')).services
        for (const e of events) expect(e.event_fingerprint).toMatch(/^[0-9a-f]{64}$/)
      })

      it('stores the same event once and moves its last-seen time forward only', async () => {
        const store = makeStore()
        const base = makeEvent({ ip: '192.0.2.20', host: 'a.dup.test', port: '443', event_fingerprint: 'a'.repeat(64) })
        const r1 = await store.ingest([{ ...base, time: '2024-01-01T00:00:00Z' }])
        const r2 = await store.ingest([
          { ...base, time: '2024-03-01T00:00:00.123456789Z' },
          { ...base, time: '2023-01-01T00:00:00Z' },
          { ...base, host: 'A.DUP.TEST.', ip: '::ffff:192.0.2.20', time: '2024-02-01T00:00:00Z' },
        ])
        expect(r1).toMatchObject({ accepted: 1, duplicates: 0 })
        expect(r2).toMatchObject({ accepted: 0, duplicates: 3 })
        expect(store.size).toBe(1)
        const events = parsed(await store.host('192.0.2.20')).services
        expect(events.map((e) => e.time)).toEqual(['2024-03-01T00:00:00.123456789Z'])
        expect(await store.subdomains('dup.test')).toEqual([{ subdomain: 'a.dup.test', distinct_ips: 1, last_seen: '2024-03-01T00:00:00.123Z' }])
      })

      it('keeps events apart when port, source, host or ip differ', async () => {
        const store = makeStore()
        const base = makeEvent({ ip: '192.0.2.21', host: 'b.dup.test', port: '443', event_fingerprint: 'b'.repeat(64) })
        const result = await store.ingest([
          base,
          { ...base, port: '8443' },
          { ...base, event_source: 'Other' },
          { ...base, host: 'c.dup.test' },
          { ...base, ip: '192.0.2.22' },
          { ...base, event_fingerprint: 'c'.repeat(64) },
        ])
        expect(result).toMatchObject({ accepted: 6, duplicates: 0 })
      })

      it('tells listeners about every valid event, and stops when asked', async () => {
        const store = makeStore()
        const heard: [string, boolean][] = []
        const stop = store.onIngest(({ event, duplicate, json }) => {
          expect(JSON.parse(json)).toEqual(JSON.parse(serializeEvent(event)))
          heard.push([event.ip, duplicate])
        })
        const e = makeEvent({ ip: '192.0.2.30' })
        await store.ingest([e, e, { bad: true, time: 5 }])
        stop()
        await store.ingest([makeEvent({ ip: '192.0.2.31' })])
        expect(heard).toEqual([
          ['192.0.2.30', false],
          ['192.0.2.30', true],
        ])
      })
    })

    describe('ingest of JSON text', () => {
      it('stores canonical text as is, normalises other text, and reports bad JSON', async () => {
        const store = makeStore()
        const canonical = serializeEvent(makeEvent({ ip: '192.0.2.70', host: 'Text.Example', event_fingerprint: 'd'.repeat(64), summary: 'a "quoted" \\ summary,"time":"x"' }))
        const lenient = JSON.stringify({ event_type: 'leak', event_source: 's', ip: '192.0.2.70', port: 8080, time: '2024-01-01T00:00:00+02:00' })
        const result = await store.ingest([new JsonText(canonical), new JsonText(lenient), new JsonText('{"event_type":'), new JsonText('[]')])
        expect(result.accepted).toBe(2)
        expect(result.rejected.map((r) => [r.index, r.errors[0]!.code])).toEqual([
          [2, 'bad_json'],
          [3, 'not_object'],
        ])
        const found = (await store.host('192.0.2.70'))!
        expect(found.services.map(text)).toEqual([canonical])
        expect(JSON.parse(text(found.leaks[0]!))).toMatchObject({ port: '8080', time: '2023-12-31T22:00:00Z' })
        expect(hostsOf(await store.domain('text.example'))).toEqual(['Text.Example'])
      })

      it('treats text and parsed value of the same event as one event', async () => {
        const store = makeStore()
        const event = makeEvent({ ip: '192.0.2.71', host: 'same.test', port: '22', event_fingerprint: 'e'.repeat(64) })
        const result = await store.ingest([event, new JsonText(serializeEvent(event)), new JsonText(JSON.stringify(event, null, 2))])
        expect(result).toMatchObject({ accepted: 1, duplicates: 2 })
      })

      it('keeps protocol objects as given: canonical text byte for byte, other forms in their canonical form', async () => {
        const store = makeStore()
        const every = { ...exampleProtocolEvent(), ip: '192.0.2.74', event_fingerprint: 'a'.repeat(64) } as Event
        const canonical = serializeEvent(every)
        const lenient = { ...makeEvent({ ip: '192.0.2.75', event_fingerprint: 'b'.repeat(64) }), redis: { auth_required: 'yes', mode: null }, ftp: null, mongodb: {} }
        const result = await store.ingest([new JsonText(canonical), new JsonText(JSON.stringify(lenient))])
        expect(result.accepted).toBe(2)
        expect((await store.host('192.0.2.74'))!.services.map(text)).toEqual([canonical])
        const [stored] = (await store.host('192.0.2.75'))!.services.map(text)
        expect(stored!.endsWith('},"redis":{"auth_required":true},"mongodb":{}}')).toBe(true)
        expect(JSON.parse(stored!)).not.toHaveProperty('ftp')
      })

      it('keeps header names in byte order (Go’s), whether the document came as a value or as text in its tool’s order', async () => {
        const store = makeStore()
        const header = { server: 'a', Date: 'b', 'X-B': 'c', '10': 'd', '9': 'e' }
        const asValue = makeEvent({ ip: '192.0.2.72', event_fingerprint: 'f'.repeat(64) })
        asValue.http = { ...asValue.http, header }
        const inToolOrder = JSON.stringify(asValue).replace(/"header":\{[^}]*\}/, '"header":{"server":"a","Date":"b","X-B":"c","10":"d","9":"e"}')
        const result = await store.ingest([asValue, new JsonText(inToolOrder.replace('192.0.2.72', '192.0.2.73'))])
        expect(result.accepted).toBe(2)
        for (const ip of ['192.0.2.72', '192.0.2.73']) {
          const [stored] = (await store.host(ip))!.services.map(text)
          expect(stored).toContain('"header":{"10":"d","9":"e","Date":"b","X-B":"c","server":"a"}')
          expect(stored).toBe(serializeEvent(JSON.parse(stored!) as Event))
        }
      })
    })

    describe('host lookup', () => {
      it('finds events by IP in any spelling, IPv4-mapped and zero-compressed included', async () => {
        const store = makeStore()
        await store.ingest([
          makeEvent({ ip: '192.0.2.40', summary: 'v4' }),
          makeEvent({ ip: '::FFFF:192.0.2.40', summary: 'v4 mapped' }),
          makeEvent({ ip: '2001:DB8:0:0:0:0:0:1', summary: 'v6 long' }),
          makeEvent({ ip: '2001:db8::1', port: '22', summary: 'v6 short' }),
          makeEvent({ ip: '2001:db8::2', summary: 'other v6' }),
          makeEvent({ ip: '', host: '192.0.2.41', summary: 'ip in host' }),
        ])
        expect(summaries(await store.host('192.0.2.40'))).toEqual(['v4', 'v4 mapped'])
        expect(summaries(await store.host('::ffff:c000:228'))).toEqual(['v4', 'v4 mapped'])
        expect(summaries(await store.host('2001:db8:0::0:1'))).toEqual(['v6 long', 'v6 short'])
        expect(summaries(await store.host('2001:0db8:0000:0000:0000:0000:0000:0001'))).toEqual(['v6 long', 'v6 short'])
        expect(summaries(await store.host('192.0.2.41'))).toEqual(['ip in host'])
      })

      it('splits events by event_type (service to services, leak to leaks) and refuses other types with the reason', async () => {
        const store = makeStore()
        const report = await store.ingest([
          makeEvent({ ip: '192.0.2.50', event_type: 'service', summary: 's' }),
          makeEvent({ ip: '192.0.2.50', event_type: 'leak', summary: 'l' }),
          makeEvent({ ip: '192.0.2.50', event_type: 'synack', summary: 'x' }),
        ])
        expect(report.accepted).toBe(2)
        expect(report.rejected).toEqual([
          { index: 2, errors: [expect.objectContaining({ code: 'unknown_value', pointer: '/event_type', found: 'synack' })] },
        ])
        const p = parsed(await store.host('192.0.2.50'))
        expect(p.services.map((e) => e.summary)).toEqual(['s'])
        expect(p.leaks.map((e) => e.summary)).toEqual(['l'])
      })

      it('answers empty lists for an unknown address and null for a malformed one', async () => {
        const store = makeStore()
        await store.ingest([makeEvent({ ip: '192.0.2.60' })])
        expect(await store.host('192.0.2.61')).toEqual({ services: [], leaks: [] })
        for (const bad of ['', '192.0.2', '192.0.2.256', '01.2.3.4', '1:2:3', '::1::', 'fe80::1%eth0', 'example.com', ' 192.0.2.60']) {
          expect(await store.host(bad), bad).toBeNull()
        }
      })
    })

    describe('domain lookup', () => {
      const names = [
        'example.com',
        'www.example.com',
        'a.b.example.com',
        'WWW2.Example.COM.',
        'notexample.com',
        'www.notexample.com',
        'example.com.evil.test',
        'example.co',
        'example-com.test',
        'xexample.com',
        'example.community',
        'com',
      ]
      const loaded = async () => {
        const store = makeStore()
        await store.ingest(names.map((host, i) => makeEvent({ host, ip: `192.0.2.${100 + i}`, summary: host })))
        return store
      }

      it("returns the domain's events and its subdomains', and no look-alike", async () => {
        const store = await loaded()
        expect(hostsOf(await store.domain('example.com'))).toEqual(['WWW2.Example.COM.', 'a.b.example.com', 'example.com', 'www.example.com'])
        expect(hostsOf(await store.domain('notexample.com'))).toEqual(['notexample.com', 'www.notexample.com'])
        expect(hostsOf(await store.domain('b.example.com'))).toEqual(['a.b.example.com'])
      })

      it('ignores case and a trailing dot', async () => {
        const store = await loaded()
        expect(hostsOf(await store.domain('EXAMPLE.Com.'))).toEqual(hostsOf(await store.domain('example.com')))
      })

      it('answers empty lists for an unknown domain and null for a malformed one', async () => {
        const store = await loaded()
        expect(await store.domain('unknown.test')).toEqual({ services: [], leaks: [] })
        for (const bad of ['', '.', 'a..b', '-a.test', 'a-.test', 'a b.test', 'a/b', '192.0.2.1', 'x'.repeat(64) + '.test', '..', '\u0000']) {
          expect(await store.domain(bad), bad).toBeNull()
        }
      })
    })

    describe('subdomains', () => {
      it('derives distinct_ips and last_seen (3 fraction digits, Z) per name below the domain', async () => {
        const store = makeStore()
        await store.ingest([
          makeEvent({ host: 'example.com', ip: '192.0.2.1', time: '2024-05-01T00:00:00Z' }),
          makeEvent({ host: 'www.example.com', ip: '192.0.2.1', time: '2024-01-01T00:00:00.9999Z' }),
          makeEvent({ host: 'www.example.com', ip: '192.0.2.2', time: '2023-01-01T00:00:00Z' }),
          makeEvent({ host: 'www.example.com', ip: '::ffff:192.0.2.2', port: '8080', time: '2022-01-01T00:00:00Z' }),
          makeEvent({ host: 'deep.a.example.com', ip: '2001:db8::5', time: '2024-02-01T10:20:30.000000001Z' }),
          makeEvent({ host: 'notexample.com', ip: '192.0.2.3', time: '2024-06-01T00:00:00Z' }),
        ])
        expect(await store.subdomains('Example.com.')).toEqual([
          { subdomain: 'deep.a.example.com', distinct_ips: 1, last_seen: '2024-02-01T10:20:30.000Z' },
          { subdomain: 'www.example.com', distinct_ips: 2, last_seen: '2024-01-01T00:00:00.999Z' },
        ])
        expect(await store.subdomains('a.example.com')).toEqual([{ subdomain: 'deep.a.example.com', distinct_ips: 1, last_seen: '2024-02-01T10:20:30.000Z' }])
      })

      it('caps the answer at the limit, keeping the most recently seen', async () => {
        const store = makeStore()
        await store.ingest(
          Array.from({ length: 30 }, (_, i) => makeEvent({ host: `n${i}.cap.test`, ip: '192.0.2.7', time: `2024-01-01T00:00:${String(i).padStart(2, '0')}Z` })),
        )
        const all = (await store.subdomains('cap.test'))!
        expect(all).toHaveLength(30)
        const some = (await store.subdomains('cap.test', 5))!
        expect(some.map((e) => e.subdomain)).toEqual(['n29.cap.test', 'n28.cap.test', 'n27.cap.test', 'n26.cap.test', 'n25.cap.test'])
        expect(await store.subdomains('cap.test', 0)).toEqual([])
      })

      it('answers [] for an unknown domain and null for a malformed one', async () => {
        const store = makeStore()
        expect(await store.subdomains('nothing.test')).toEqual([])
        expect(await store.subdomains('bad..name')).toBeNull()
      })
    })

    describe('first and last seen (web view)', () => {
      it('keeps the earliest and the latest time of an event across duplicate observations', async () => {
        const store = makeStore()
        const base = makeEvent({ ip: '192.0.2.80', host: 'seen.test', port: '443', event_type: 'leak', event_fingerprint: '1'.repeat(64), summary: 'once' })
        await store.ingest([{ ...base, time: '2024-01-10T00:00:00Z' }])
        expect(seenLines(await store.hostSeen('192.0.2.80')).leaks).toEqual(['once 2024-01-10T00:00:00Z 2024-01-10T00:00:00Z'])
        await store.ingest([{ ...base, time: '2024-03-01T12:00:00.123456789Z' }])
        await store.ingest([{ ...base, time: '2024-02-01T00:00:00Z' }]) // between: moves neither
        expect(seenLines(await store.hostSeen('192.0.2.80')).leaks).toEqual(['once 2024-01-10T00:00:00Z 2024-03-01T12:00:00.123456789Z'])
        await store.ingest([{ ...base, host: 'SEEN.test.', time: '2023-12-31T23:59:59.5Z' }]) // earlier: moves first seen only
        const seen = (await store.domainSeen('seen.test'))!
        expect(seenLines(seen).leaks).toEqual(['once 2023-12-31T23:59:59.5Z 2024-03-01T12:00:00.123456789Z'])
        // The kept document is the latest observation, exactly as the JSON lookup returns it.
        expect(seenBytes(seen)).toEqual(lookupBytes(await store.domain('seen.test')))
        expect((JSON.parse(text(seen.leaks[0]!.json)) as Event).time).toBe('2024-03-01T12:00:00.123456789Z')
        expect(store.size).toBe(1)
      })

      it('gives the earliest and latest time whatever order the observations come in, in one batch or many (property)', async () => {
        const observations = fc.uniqueArray(canonicalTimeArb, { minLength: 1, maxLength: 6 })
        await fc.assert(
          fc.asyncProperty(observations, fc.boolean(), async (times, oneBatch) => {
            const store = makeStore()
            const base = makeEvent({ ip: '192.0.2.81', host: 'order.seen.test', port: '22', event_fingerprint: '2'.repeat(64), summary: 's' })
            const other = makeEvent({ ip: '192.0.2.81', port: '23', event_fingerprint: '3'.repeat(64), summary: 'other', time: '2020-06-01T00:00:00Z' })
            const docs = [other, ...times.map((time) => ({ ...base, time }))]
            if (oneBatch) await store.ingest(docs)
            else for (const doc of docs) await store.ingest([doc])
            const instants = times.map((t) => (parseTime(t) as { ok: true; value: bigint }).value)
            const first = formatTime(instants.reduce((a, b) => (b < a ? b : a)))
            const last = formatTime(instants.reduce((a, b) => (b > a ? b : a)))
            const expected = [`other 2020-06-01T00:00:00Z 2020-06-01T00:00:00Z`, `s ${first} ${last}`].sort()
            expect(seenLines(await store.hostSeen('::ffff:192.0.2.81')).services).toEqual(expected)
            expect(seenLines(await store.domainSeen('seen.test')).services).toEqual([`s ${first} ${last}`])
            expect(seenBytes(await store.hostSeen('192.0.2.81'))).toEqual(lookupBytes(await store.host('192.0.2.81')))
          }),
          { numRuns: 60 },
        )
      })

      it('yields days open as whole days from first to last seen', async () => {
        const store = makeStore()
        const leak = (fingerprint: string, summary: string) =>
          makeEvent({ ip: '192.0.2.82', event_type: 'leak', port: '9200', event_fingerprint: fingerprint.repeat(64), summary })
        const a = leak('4', 'ten')
        const b = leak('5', 'almost one')
        const c = leak('6', 'single')
        const d = leak('7', 'leap')
        await store.ingest([
          { ...a, time: '2024-01-11T06:00:00Z' },
          { ...a, time: '2024-01-01T06:00:00Z' },
          { ...a, time: '2024-01-05T00:00:00Z' },
          { ...b, time: '2024-01-01T00:00:00Z' },
          { ...b, time: '2024-01-01T23:59:59.999999999Z' },
          { ...c, time: '2024-05-05T05:05:05Z' },
          { ...d, time: '2024-02-28T12:00:00Z' },
          { ...d, time: '2024-03-01T12:00:00Z' },
        ])
        const days = (await store.hostSeen('192.0.2.82'))!.leaks.map((e) => `${(JSON.parse(text(e.json)) as Event).summary}=${daysOpen(e.firstSeen, e.lastSeen)}`)
        expect(days.sort()).toEqual(['almost one=0', 'leap=2', 'single=0', 'ten=10'])
      })

      it('answers empty lists for an unknown resource and null for a malformed one', async () => {
        const store = makeStore()
        await store.ingest([makeEvent({ ip: '192.0.2.83', host: 'known.test' })])
        expect(await store.hostSeen('192.0.2.84')).toEqual({ services: [], leaks: [] })
        expect(await store.domainSeen('unknown.test')).toEqual({ services: [], leaks: [] })
        expect(await store.hostSeen('192.0.2.256')).toBeNull()
        expect(await store.domainSeen('a..b')).toBeNull()
      })
    })

    describe('severity counts (web view)', () => {
      it('counts stored leaks by severity, not services, and a duplicate once', async () => {
        const store = makeStore()
        expect(await store.severityCounts()).toEqual({})
        const leak = (severity: string, extra: object = {}) => makeEvent({ ip: '192.0.2.90', event_type: 'leak', leak: { ...makeEvent({}).leak, severity }, ...extra })
        const dup = leak('high', { event_fingerprint: '8'.repeat(64), time: '2024-01-01T00:00:00Z' })
        await store.ingest([
          leak('critical'),
          leak('high'),
          leak('high'),
          leak(''),
          leak('weird <b>'),
          leak('__proto__'),
          makeEvent({ ip: '192.0.2.90', event_type: 'service', leak: { ...makeEvent({}).leak, severity: 'critical' } }),
          dup,
          { ...dup, time: '2023-01-01T00:00:00Z' },
        ])
        // Canonical text takes the fast path in stores that have one: it must count the same.
        await store.ingest([new JsonText(serializeEvent(normalizeOk(leak('low')))), new JsonText(serializeEvent(normalizeOk(leak('critical'))))])
        const counts = await store.severityCounts()
        expect(Object.entries(counts).sort()).toEqual(
          [
            ['', 1],
            ['__proto__', 1],
            ['critical', 2],
            ['high', 3],
            ['low', 1],
            ['weird <b>', 1],
          ].sort(),
        )
      })

      it('follows the kept observation when a later duplicate changes the severity', async () => {
        const store = makeStore()
        const base = makeEvent({ ip: '192.0.2.91', event_type: 'leak', event_fingerprint: '9'.repeat(64), time: '2024-01-01T00:00:00Z' })
        await store.ingest([{ ...base, leak: { ...base.leak, severity: 'medium' } }])
        await store.ingest([{ ...base, time: '2023-01-01T00:00:00Z', leak: { ...base.leak, severity: 'low' } }]) // earlier: not kept
        expect(await store.severityCounts()).toEqual({ medium: 1 })
        await store.ingest([{ ...base, time: '2024-06-01T00:00:00Z', leak: { ...base.leak, severity: 'critical' } }])
        expect(await store.severityCounts()).toEqual({ critical: 1 })
      })

      it('moves an event between Services and Leaks when a later duplicate changes its type', async () => {
        const store = makeStore()
        const base = makeEvent({ ip: '192.0.2.92', event_fingerprint: '8'.repeat(64), time: '2024-01-01T00:00:00Z' })
        await store.ingest([base])
        await store.ingest([{ ...base, event_type: 'leak', time: '2024-02-01T00:00:00Z', leak: { ...base.leak, severity: 'high' } }])
        const asLeak = parsed(await store.host('192.0.2.92'))
        expect([asLeak.services.length, asLeak.leaks.length]).toEqual([0, 1])
        expect(await store.severityCounts()).toEqual({ high: 1 })
        await store.ingest([{ ...base, time: '2024-03-01T00:00:00Z' }])
        const back = parsed(await store.host('192.0.2.92'))
        expect([back.services.length, back.leaks.length]).toEqual([1, 0])
        expect(await store.severityCounts()).toEqual({})
      })
    })

    describe('deleteTagged', () => {
      it('deletes exactly the events whose tags hold the tag, from every lookup and count; they can be ingested again', async () => {
        const store = makeStore()
        const run = 'l9kit-conform:c1abc'
        const tagged = [
          makeEvent({ host: 'a.run.test', ip: '192.0.2.7', port: '80', tags: [run] }),
          makeEvent({ event_type: 'leak', host: 'b.run.test', ip: '2001:db8::7', port: '443', tags: ['other', run], leak: { stage: 'open', type: '', severity: 'high', dataset: { rows: 0, files: 0, size: 0, collections: 0, infected: false, ransom_notes: null } } }),
        ]
        const kept = [
          makeEvent({ host: 'c.run.test', ip: '192.0.2.7', port: '22', tags: [`${run}x`] }), // a longer tag is not the tag
          makeEvent({ host: 'run.test', ip: '192.0.2.8', port: '80', tags: [], summary: `mentions ${run} in its text` }),
          makeEvent({ event_type: 'leak', host: 'd.run.test', ip: '192.0.2.9', port: '80', tags: ['l9kit-conform:c1ab'], leak: { stage: 'open', type: '', severity: 'high', dataset: { rows: 0, files: 0, size: 0, collections: 0, infected: false, ransom_notes: null } } }),
        ]
        await store.ingest([...tagged, ...kept])
        expect(await store.size).toBe(5)
        expect(await store.deleteTagged(run)).toBe(2)
        expect(await store.deleteTagged(run)).toBe(0)
        expect(await store.size).toBe(3)
        expect(summaries(await store.host('192.0.2.7'))).toEqual([kept[0]!.summary])
        expect(await store.host('2001:db8::7')).toEqual({ services: [], leaks: [] })
        expect(hostsOf(await store.domain('run.test'))).toEqual(['c.run.test', 'd.run.test', 'run.test'])
        expect((await store.subdomains('run.test'))!.map((e) => e.subdomain).sort()).toEqual(['c.run.test', 'd.run.test'])
        expect(await store.severityCounts()).toEqual({ high: 1 })
        const again = await store.ingest([tagged[0]])
        expect(again).toMatchObject({ accepted: 1, duplicates: 0 })
        expect(summaries(await store.host('192.0.2.7')).sort()).toEqual([kept[0]!.summary, tagged[0]!.summary].sort())
      })

      it('deletes tagged events that hold NUL and lone surrogates (in their text and in their tags), and a tag holding them exactly', async () => {
        const store = makeStore()
        const run = 'l9kit-conform:c1nul'
        const odd = `${run}\u0000\ud800`
        const tagged = [
          makeEvent({ host: 'a.nul.test', ip: '192.0.2.17', port: '80', tags: [run], summary: 'a NUL \u0000 and a lone \ud800 surrogate' }),
          makeEvent({ host: 'b.nul.test', ip: '192.0.2.18', port: '80', tags: ['\u0000', run, '\udfff'] }),
        ]
        const oddOnly = makeEvent({ host: 'c.nul.test', ip: '192.0.2.19', port: '80', tags: [odd] })
        // Only the NUL differs from `odd` (as PostgreSQL's text would see both: U+FFFD): kept.
        const lookalike = makeEvent({ host: 'd.nul.test', ip: '192.0.2.20', port: '80', tags: [`${run}\ufffd\ud800`] })
        await store.ingest([...tagged, oddOnly, lookalike])
        expect(await store.deleteTagged(run)).toBe(2)
        expect(await store.deleteTagged(odd)).toBe(1)
        expect(await store.deleteTagged('\u0000')).toBe(0)
        expect(hostsOf(await store.domain('nul.test'))).toEqual(['d.nul.test'])
      })
    })

    it('moves an address\'s hostVersion, where the store has one, exactly when something is stored for it (property)', async () => {
      const ip = fc.constantFrom('192.0.2.1', '::ffff:192.0.2.1', '192.0.2.2', '2001:db8::1', '2001:db8:0::1', '')
      const batches = fc.array(fc.array(fc.record({ ip, port: fc.constantFrom('80', '443') }), { maxLength: 6 }), { minLength: 1, maxLength: 4 })
      const probe = makeStore()
      if (probe.hostVersion === undefined || probe.version === undefined) return // optional: nothing to check
      const watched = ['192.0.2.1', '192.0.2.2', '2001:db8::1']
      await fc.assert(
        fc.asyncProperty(batches, async (groups) => {
          const store = makeStore()
          for (const group of groups) {
            const before = store.version!
            const seen = watched.map((a) => store.hostVersion!(a))
            await store.ingest(group.map((d) => makeEvent(d)))
            const touched = new Set(group.map((d) => canonicalIp(d.ip)))
            watched.forEach((a, i) => {
              if (touched.has(a)) expect(store.hostVersion!(a)).toBeGreaterThan(before)
              else expect(store.hostVersion!(a)).toBe(seen[i])
            })
          }
        }),
        { numRuns: 50 },
      )
    })

    it('agrees with a linear scan for any mix of names, IPs and batches (property)', async () => {
      const label = fc.constantFrom('a', 'b', 'ab', 'a-b', 'x', 'www', 'b_')
      const hostName = fc.array(label, { minLength: 1, maxLength: 4 }).map((ls) => ls.join('.'))
      const ip = fc.constantFrom('192.0.2.1', '192.0.2.2', '::ffff:192.0.2.1', '2001:db8::1', '2001:db8:0::1', '')
      const doc = fc.record({ host: fc.oneof(hostName, fc.constant('')), ip, summary: fc.string({ maxLength: 3 }) })
      const batches = fc.array(fc.array(doc, { maxLength: 8 }), { minLength: 1, maxLength: 5 })
      await fc.assert(
        fc.asyncProperty(batches, hostName, async (groups, query) => {
          const store = makeStore()
          const all: { host: string; ip: string; summary: string }[] = []
          for (const group of groups) {
            await store.ingest(group.map((d) => makeEvent({ ...d, summary: d.summary })))
            all.push(...group)
            // Queries between batches exercise indexes that are updated incrementally.
            const expectedHosts = all.filter((d) => d.host === query || d.host.endsWith('.' + query))
            const got = parsed(await store.domain(query))
            const keys = (xs: { host: string; ip: string; summary: string }[]) =>
              [...new Set(xs.map((x) => `${x.host}|${x.ip.replace('::ffff:', '').replace('2001:db8:0::1', '2001:db8::1')}|${x.summary}`))].sort()
            expect(keys([...got.services])).toEqual(keys(expectedHosts))
          }
          const v4 = all.filter((d) => d.ip === '192.0.2.1' || d.ip === '::ffff:192.0.2.1')
          const hostEvents = parsed(await store.host('192.0.2.1')).services
          expect(new Set(hostEvents.map((e) => `${e.host}|${e.summary}`))).toEqual(new Set(v4.map((d) => `${d.host}|${d.summary}`)))
        }),
        { numRuns: 100 },
      )
    })

    describe('plugins and new events', () => pluginAndFeedCases(makeStore))
  })
  searchCases(name, makeStore)
  countCases(name, makeStore)
}
