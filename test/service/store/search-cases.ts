/**
 * Search cases of the shared store suite (store-cases.ts runs them on every store): order,
 * paging, scope, each selective kind of term, re-observed events, bulk export, and a property
 * that the store answers exactly what the evaluator says on generated events and queries.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../../src/conformance/gen/event.js'
import { queryFor } from '../../../src/conformance/gen/query.js'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { matches, parseQuery, type Scope } from '../../../src/query/index.js'
import type { Event } from '../../../src/schema/index.js'
import { searchBody, type SeenEvent, type Store, type StoreFactory } from '../../../src/service/index.js'
import { resourceOf } from '../../../src/service/aggregate/index.js'
import { makeEvent } from '../support.js'

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
const canonical = (doc: unknown): Event => {
  const r = normalize(doc, { fingerprint: 'missing' })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}

/** Every match of `q` in `scope`, read a page of `limit` at a time until an empty page. */
async function allPages(store: Store, q: string, scope: Scope, limit: number): Promise<string[]> {
  const query = parseQuery(q, { scope })
  const out: string[] = []
  for (let offset = 0; ; offset += limit) {
    const page = await store.search(query, { offset, limit })
    if (page.length === 0) return out
    expect(page.length).toBeLessThanOrEqual(limit)
    out.push(...page.map(text))
  }
}

const summaries = (docs: string[]) => docs.map((d) => (JSON.parse(d) as Event).summary)

export function searchCases(name: string, makeStore: StoreFactory): void {
  describe(`Search cases: ${name}`, () => {
    it('answers newest first (ties by the order stored), in pages that neither overlap nor skip, then []', async () => {
      const store = makeStore()
      const times = ['2024-01-05T00:00:00Z', '2024-01-01T00:00:00Z', '2024-01-03T00:00:00.5Z', '2024-01-03T00:00:00.5Z', '2024-01-09T00:00:00Z', '2024-01-02T00:00:00Z', '2024-01-03T00:00:00.5Z']
      await store.ingest(times.map((time, i) => makeEvent({ ip: `192.0.2.${i + 1}`, time, summary: `s${i}` })))
      const all = await allPages(store, '*', 'service', 100)
      expect(summaries(all)).toEqual(['s4', 's0', 's6', 's3', 's2', 's5', 's1'])
      for (const limit of [1, 2, 3, 6]) expect(await allPages(store, '', 'service', limit)).toEqual(all)
      expect(await store.search(parseQuery('*', { scope: 'service' }), { offset: 7, limit: 5 })).toEqual([])
      expect(await store.search(parseQuery('*', { scope: 'leak' }), { offset: 0, limit: 5 })).toEqual([])
      expect(searchBody(await store.search(parseQuery('s4', { scope: 'service' }), { offset: 0, limit: 5 })).toString()).toBe(`[${all[0]}]`)
      expect(searchBody([]).toString()).toBe('[]')
    })

    it('finds by each selective kind of term, only in the scope asked', async () => {
      const store = makeStore()
      await store.ingest([
        makeEvent({ ip: '10.1.2.3', host: 'www.example.com', port: '443', event_source: 'GitConfigHttpPlugin', summary: 'a', time: '2024-05-01T00:00:00Z' }),
        makeEvent({ ip: '::ffff:10.1.9.9', host: 'api.Example.COM', port: '80', summary: 'b', time: '2024-06-01T00:00:00Z', geoip: { ...makeEvent({}).geoip, country_iso_code: 'DE' } }),
        makeEvent({ ip: '2001:db8::5', host: 'notexample.com', port: '443', summary: 'c', time: '2024-07-01T00:00:00Z', geoip: { ...makeEvent({}).geoip, country_name: 'Germany' } }),
        makeEvent({ event_type: 'leak', ip: '10.1.2.4', host: 'example.com', port: '9200', summary: 'd', event_fingerprint: 'd'.repeat(64), time: '2024-08-01T00:00:00Z', leak: { ...makeEvent({}).leak, severity: 'critical' } }),
        makeEvent({ event_type: 'leak', ip: '192.0.2.1', summary: 'e', time: '2023-08-01T00:00:00Z', network: { organization_name: 'X', asn: 64500, network: '' }, leak: { ...makeEvent({}).leak, severity: 'high' } }),
      ])
      const found = async (q: string, scope: Scope = 'service') => summaries(await allPages(store, q, scope, 10)).sort()
      expect(await found('ip:10.1.0.0/16')).toEqual(['a', 'b'])
      expect(await found('ip:10.1.0.0/16', 'leak')).toEqual(['d'])
      expect(await found('ip:10.1.9.9')).toEqual(['b'])
      expect(await found('ip:2001:db8::/32')).toEqual(['c'])
      expect(await found('host:example.com')).toEqual(['a', 'b'])
      expect(await found('domain:example.com', 'leak')).toEqual(['d'])
      expect(await found('host:=www.example.com')).toEqual(['a'])
      expect(await found('plugin:GitConfigHttpPlugin')).toEqual(['a'])
      expect(await found('port:443 -host:notexample.com')).toEqual(['a'])
      expect(await found('country:Germany')).toEqual(['b', 'c'])
      expect(await found('country:de')).toEqual(['b', 'c'])
      expect(await found(`l9fp:${'d'.repeat(64)}`, 'leak')).toEqual(['d'])
      expect(await found('severity:critical', 'leak')).toEqual(['d'])
      expect(await found('+time:>2024-05-15 +time:<2024-06-15')).toEqual(['b'])
      expect(await found('time:>2024-06-15 time:<2024-05-15')).toEqual(['a', 'c'])
      expect(await found('+time:>=2024-06-01 +time:<=2024-07-01')).toEqual(['b', 'c'])
      expect(await found('asn:64500', 'leak')).toEqual(['e'])
      expect(await found('-asn:64500', 'leak')).toEqual(['d'])
      expect(await found('a b c d e', 'any')).toEqual(['a', 'b', 'c', 'd', 'e'])
    })

    it('finds by the members of protocol objects and of the ssh extension (absent objects match nothing)', async () => {
      const store = makeStore()
      const ssh = { ...makeEvent({}).ssh, kex_algorithms: ['curve25519-sha256', 'diffie-hellman-group14-sha256'], auth_methods: ['publickey'] }
      await store.ingest([
        makeEvent({ ip: '192.0.2.1', summary: 'a', redis: { version: '7.0.11', auth_required: false } }),
        makeEvent({ ip: '192.0.2.2', summary: 'b', redis: { auth_required: true }, mongodb: { databases: ['admin', 'local'], wire_version: 17 } }),
        makeEvent({ ip: '192.0.2.3', summary: 'c', ssh, ftp: { banner: '220 ProFTPD Server ready.', anonymous: true } }),
        makeEvent({ ip: '192.0.2.4', summary: 'd' }),
      ])
      const found = async (q: string) => summaries(await allPages(store, q, 'service', 10)).sort()
      expect(await found('redis.auth_required:true')).toEqual(['b'])
      expect(await found('redis.auth_required:false')).toEqual(['a'])
      expect(await found('-redis.auth_required:true')).toEqual(['a', 'c', 'd'])
      expect(await found('redis.version:7.0.11')).toEqual(['a'])
      expect(await found('ssh.kex_algorithms:curve25519-sha256')).toEqual(['c'])
      expect(await found('ssh.auth_methods:password')).toEqual([])
      expect(await found('mongodb.databases:admin')).toEqual(['b'])
      expect(await found('mongodb.wire_version:>10')).toEqual(['b'])
      expect(await found('ftp.banner:proftpd')).toEqual(['c'])
      expect(await found('ftp.anonymous:true')).toEqual(['c'])
      expect(await found('mongodb.databases:*')).toEqual(['b'])
    })

    it('searches the kept observation: a later duplicate moves the event to the front with its new values', async () => {
      const store = makeStore()
      const base = makeEvent({ event_type: 'leak', ip: '192.0.2.40', port: '22', event_fingerprint: '4'.repeat(64), summary: 'old', time: '2024-01-01T00:00:00Z' })
      const other = makeEvent({ event_type: 'leak', ip: '192.0.2.41', summary: 'other', time: '2024-02-01T00:00:00Z' })
      await store.ingest([base, other])
      expect(summaries(await allPages(store, '*', 'leak', 10))).toEqual(['other', 'old'])
      const geoip = { ...base.geoip, country_iso_code: 'FR' }
      await store.ingest([{ ...base, summary: 'new', time: '2024-03-11T00:00:00Z', geoip, leak: { ...base.leak, severity: 'low' } }])
      expect(summaries(await allPages(store, '*', 'leak', 10))).toEqual(['new', 'other'])
      expect(summaries(await allPages(store, 'country:France +severity:low', 'leak', 10))).toEqual(['new'])
      expect(summaries(await allPages(store, 'old', 'leak', 10))).toEqual([])
      expect(summaries(await allPages(store, 'age:70', 'leak', 10))).toEqual(['new'])
      expect(summaries(await allPages(store, '+creation_date:2024-01-01 +update_date:2024-03-11', 'leak', 10))).toEqual(['new'])
      expect(summaries(await allPages(store, 'time:<2024-02-15', 'leak', 10))).toEqual(['other'])
    })

    it('exports every match in the same order as the pages (searchAll)', async () => {
      const store = makeStore()
      await store.ingest(Array.from({ length: 23 }, (_, i) => makeEvent({ ip: `192.0.2.${i}`, port: String(i % 3), time: `2024-01-${String(1 + (i % 9)).padStart(2, '0')}T00:00:00Z` })))
      for (const q of ['*', 'port:1', 'ip:192.0.2.0/28 -port:2', 'event']) {
        const exported: string[] = []
        for await (const bytes of store.searchAll(parseQuery(q, { scope: 'service' }), { batch: 4 })) exported.push(text(bytes))
        expect(exported, q).toEqual(await allPages(store, q, 'service', 5))
      }
    })

    it('exports every match with its seen times, one resource\'s events together (searchByResource)', async () => {
      const store = makeStore()
      const spots = ['192.0.2.1', '::ffff:192.0.2.2', '2001:db8::1', '']
      const hosts = ['a.example.com', 'B.example.com', '192.0.2.1', '', 'bad host!']
      const events = Array.from({ length: 40 }, (_, i) =>
        makeEvent({ event_type: i % 5 === 0 ? 'service' : 'leak', ip: spots[(i * 7) % 4]!, host: hosts[(i * 3) % 5]!, port: String(i % 4), summary: `r${i}`, time: `2024-02-${String(1 + (i % 20)).padStart(2, '0')}T00:00:00Z` }),
      )
      await store.ingest(events)
      await store.ingest([{ ...events[1]!, time: '2023-12-01T00:00:00Z' }]) // an earlier sighting: first seen moves
      for (const q of ['*', 'port:1', 'ip:192.0.2.0/24', 'r3 r7 r11 r12']) {
        const query = parseQuery(q, { scope: 'leak' })
        const got: SeenEvent[] = []
        for await (const item of store.searchByResource(query, { batch: 3 })) got.push(item)
        const docs = got.map((g) => text(g.json))
        expect([...docs].sort(), q).toEqual((await allPages(store, q, 'leak', 100)).sort())
        const resources = docs.map((d) => resourceOf(JSON.parse(d) as Event).id)
        const runs = resources.filter((r, i) => i === 0 || resources[i - 1] !== r)
        expect(new Set(runs).size, `${q}: ${resources.join(' ')}`).toBe(runs.length)
        for (const g of got) expect(g.lastSeen).toBe((JSON.parse(text(g.json)) as Event).time)
      }
      const first: SeenEvent[] = []
      for await (const item of store.searchByResource(parseQuery('r1', { scope: 'leak' }))) first.push(item)
      expect(first.map((f) => [f.firstSeen, f.lastSeen])).toEqual([['2023-12-01T00:00:00Z', '2024-02-02T00:00:00Z']])
    })

    it('answers exactly the events the evaluator matches, newest first (property)', async () => {
      const docs = fc
        .array(strictEvent({ type: fc.constantFrom('service', 'leak') }), { minLength: 1, maxLength: 12 })
        .map((events) => events.map((e, i) => ({ ...e, event_fingerprint: i.toString(16).padStart(64, 'a') })))
      const input = docs.chain((events) => fc.tuple(fc.constant(events), fc.array(queryFor(events, 'leak'), { minLength: 1, maxLength: 5 }), fc.constantFrom<Scope>('service', 'leak')))
      await fc.assert(
        fc.asyncProperty(input, async ([events, queries, scope]) => {
          const store = makeStore()
          await store.ingest(events)
          const stored = events.map(canonical)
          for (const q of queries) {
            let query
            try {
              query = parseQuery(q, { scope })
            } catch {
              continue // a leak-only term in a search of services
            }
            const expected = stored.filter((e) => matches(query, e)).map(serializeEvent).sort()
            const got = (await store.search(query, { offset: 0, limit: 1000 })).map(text)
            expect([...got].sort(), q).toEqual(expected)
            const times = got.map((g) => (JSON.parse(g) as Event).time)
            expect(times, q).toEqual([...times].sort(compareTimes).reverse())
          }
        }),
        { numRuns: store(name) === 'memory' ? 150 : 8 },
      )
    })
  })
}

const store = (name: string) => (/memory/i.test(name) ? 'memory' : 'other')

/** Canonical times in time order (fraction digits vary, so not as text). */
function compareTimes(a: string, b: string): number {
  const key = (t: string) => t.slice(0, 19) + (t.slice(20, -1) || '').padEnd(9, '0')
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0
}
