/**
 * Counting cases of the shared store suite (store-cases.ts runs them on every store): the total
 * and each facet on known events (ties, address order, lists once per event, empty values left
 * out, limits), the bound on distinct values, and a property that a store's count is what the
 * engine's own evaluation gives: the matches by `matches()`, the values by the facet table's
 * `values()` (facetCounts()).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../../src/conformance/gen/event.js'
import { queryFor } from '../../../src/conformance/gen/query.js'
import { normalize } from '../../../src/normalize/index.js'
import { FACETS, facetCounts, type FacetRequest, parseFacets } from '../../../src/query/facets.js'
import { matches, parseQuery, type Scope } from '../../../src/query/index.js'
import type { Event } from '../../../src/schema/index.js'
import { SearchLimitError, type StoreFactory } from '../../../src/service/index.js'
import { makeEvent } from '../support.js'

const canonical = (doc: unknown): Event => {
  const r = normalize(doc, { fingerprint: 'missing' })
  if (!r.ok) throw new Error(JSON.stringify(r.errors))
  return r.event
}

const geo = (code: string) => ({ ...makeEvent({}).geoip, country_iso_code: code })

/** What the engine says a count is: the evaluator's matches, the facet table's values. */
export function expectedCount(stored: readonly Event[], q: string, scope: 'service' | 'leak', facets: readonly FacetRequest[]) {
  const query = parseQuery(q, { scope })
  const matched = stored.filter((e) => matches(query, e)) as unknown as Record<string, unknown>[]
  return { total: matched.length, facets: facets.map(({ facet, limit }) => ({ name: facet.name, values: facetCounts(facet, matched, limit) })) }
}

/** Any set of facets allowed in `scope`, each with a limit. */
export const facetsArb = (scope: Scope) =>
  fc.uniqueArray(fc.constantFrom(...FACETS.filter((f) => scope !== 'service' || !f.leakOnly)), { maxLength: 6, selector: (f) => f.name }).chain((facets) =>
    fc.tuple(...facets.map((facet) => fc.integer({ min: 1, max: 12 }).map((limit): FacetRequest => ({ facet, limit })))),
  )

export function countCases(name: string, makeStore: StoreFactory): void {
  describe(`Count cases: ${name}`, () => {
    it('counts the matches of the scope and the top values of each facet: ties by value, addresses in address order, lists once per event, empty values left out', async () => {
      const store = makeStore()
      await store.ingest([
        makeEvent({ ip: '192.0.2.10', host: 'www.example.com', port: '443', summary: 'a', tags: ['x', 'x', 'y'], geoip: geo('de') }),
        makeEvent({ ip: '2001:db8::1', host: 'example.com', port: '443', summary: 'b', tags: ['y'], geoip: geo('FR') }),
        makeEvent({ ip: '192.0.2.9', host: '', port: '80', summary: 'c', tags: [], network: { organization_name: 'Org', asn: 64500, network: '' } }),
        makeEvent({ ip: '', host: 'api.example.com', port: '', summary: 'd', protocol: 'https' }),
        makeEvent({ event_type: 'leak', ip: '192.0.2.10', port: '9200', summary: 'e', leak: { ...makeEvent({}).leak, severity: 'critical' } }),
      ])
      const count = (q: string, scope: 'service' | 'leak', facets: string) => store.count(parseQuery(q, { scope }), { facets: parseFacets(facets, scope) })
      const all = await count('*', 'service', 'port,ip,host,tags,country,asn,protocol,plugin')
      expect(all.total).toBe(4)
      const by = Object.fromEntries(all.facets.map((f) => [f.name, f.values.map((v) => `${v.value}=${v.count}`)]))
      expect(by).toEqual({
        port: ['443=2', '80=1'],
        ip: ['192.0.2.9=1', '192.0.2.10=1', '2001:db8::1=1'],
        host: ['api.example.com=1', 'example.com=1', 'www.example.com=1'],
        tags: ['y=2', 'x=1'],
        country: ['DE=1', 'FR=1'],
        asn: ['64500=1'],
        protocol: ['https=1'],
        plugin: [`${makeEvent({}).event_source}=4`],
      })
      expect((await count('+port:443', 'service', 'port:1,tags:1')).facets.map((f) => f.values)).toEqual([[{ value: '443', count: 2 }], [{ value: 'y', count: 2 }]])
      expect(await count('+port:443', 'service', '')).toEqual({ total: 2, facets: [] })
      expect(await count('+port:1', 'service', 'port')).toEqual({ total: 0, facets: [{ name: 'port', values: [] }] })
      expect(await count('*', 'leak', 'severity,ip')).toEqual({
        total: 1,
        facets: [
          { name: 'severity', values: [{ value: 'critical', count: 1 }] },
          { name: 'ip', values: [{ value: '192.0.2.10', count: 1 }] },
        ],
      })
    })

    it('ends with SearchLimitError when a facet meets more distinct values than its bound', async () => {
      const store = makeStore()
      await store.ingest([1, 2, 3].map((i) => makeEvent({ ip: `192.0.2.${i}`, port: String(i), tags: [`t${i}`] })))
      const query = parseQuery('*', { scope: 'service' })
      for (const facet of ['port', 'tags']) {
        await expect(async () => store.count(query, { facets: parseFacets(facet, 'service'), distinctLimit: 2 })).rejects.toThrow(SearchLimitError)
        expect((await store.count(query, { facets: parseFacets(facet, 'service'), distinctLimit: 3 })).total).toBe(3)
      }
    })

    it('counts exactly what the evaluator matches, each facet as the facet table reads the events (property)', { timeout: 120_000 }, async () => {
      const docs = fc
        .array(strictEvent({ type: fc.constantFrom('service', 'leak') }), { minLength: 1, maxLength: 14 })
        .map((events) => events.map((e, i) => ({ ...e, event_fingerprint: i.toString(16).padStart(64, 'b') })))
      const input = docs.chain((events) =>
        fc.constantFrom<'service' | 'leak'>('service', 'leak').chain((scope) => fc.tuple(fc.constant(events), fc.array(queryFor(events, scope), { minLength: 1, maxLength: 4 }), fc.constant(scope), facetsArb(scope))),
      )
      await fc.assert(
        fc.asyncProperty(input, async ([events, queries, scope, facets]) => {
          const store = makeStore()
          await store.ingest(events)
          const stored = events.map(canonical)
          for (const q of queries) {
            const got = await store.count(parseQuery(q, { scope }), { facets })
            expect(got, q).toEqual(expectedCount(stored, q, scope, facets))
          }
        }),
        { numRuns: /memory/i.test(name) ? 60 : 8 },
      )
    })
  })
}
