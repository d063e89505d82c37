/**
 * Counting on PostgreSQL against the memory store and the evaluator: one generated set of 400
 * events loaded into both stores, then generated queries with every facet (memory = PostgreSQL
 * = the engine's own evaluation); the statement is one, its text the shape only (no value of
 * the query or of a facet's limit in it); the bound on distinct values and the statement
 * timeout end a count as a search's would.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { strictEvent } from '../../../src/conformance/gen/event.js'
import { queryFor } from '../../../src/conformance/gen/query.js'
import { normalize } from '../../../src/normalize/index.js'
import { FACETS, parseFacets } from '../../../src/query/facets.js'
import { parseQuery } from '../../../src/query/index.js'
import type { Event } from '../../../src/schema/index.js'
import { MemoryStore, SearchLimitError } from '../../../src/service/index.js'
import { countStatement } from '../../../src/service/store/postgres/count.js'
import { connect, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { expectedCount, facetsArb } from '../store/count-cases.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 180_000 })

const schemas: string[] = []

describePostgres('PostgresStore count', () => {
  let pg: PostgresStore
  const memory = new MemoryStore()
  let events: Event[] = []
  let stored: Event[] = []

  beforeAll(async () => {
    // Shared addresses, names, ports and countries, so facets have values counted more than once.
    const arb = fc.array(
      strictEvent({ type: fc.constantFrom('service', 'leak'), ip: fc.constantFrom('10.0.0.1', '10.0.1.7', '2001:db8::1', '2001:db8:0:0:1::1', '::ffff:10.0.0.9', '', '192.0.2.77'), host: fc.constantFrom('a.example.com', 'example.com', 'B.Example.Com.', 'other.test', '') }),
      { minLength: 400, maxLength: 400 },
    )
    events = fc.sample(arb, { numRuns: 1, seed: 43 })[0]!.map((e, i) => ({ ...e, event_fingerprint: i.toString(16).padStart(64, '0') }))
    stored = events.map((e) => {
      const r = normalize(e, { fingerprint: 'missing' })
      if (!r.ok) throw new Error(JSON.stringify(r.errors))
      return r.event
    })
    const schema = freshSchema()
    schemas.push(schema)
    pg = await PostgresStore.open(DATABASE_URL, { schema, max: 4 })
    await pg.ingest(events)
    memory.ingest(events)
  })
  afterAll(async () => {
    await pg?.close()
  })
  dropSchemasAfterAll(schemas)

  it('counts as the memory store and the evaluator do, every facet, for generated queries over 400 events (property)', async () => {
    let nonEmpty = 0
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'service' | 'leak'>('service', 'leak').chain((scope) => fc.tuple(fc.constant(scope), fc.integer({ min: 0, max: events.length - 5 }), facetsArb(scope))),
        async ([scope, at, facets]) => {
          const texts = ['*', ...fc.sample(queryFor(events.slice(at, at + 5), scope), { numRuns: 3, seed: at })]
          for (const q of texts) {
            const query = parseQuery(q, { scope })
            const fromPg = await pg.count(query, { facets })
            expect(fromPg, q).toEqual(await memory.count(query, { facets }))
            expect(fromPg, q).toEqual(expectedCount(stored, q, scope, facets))
            if (fromPg.facets.some((f) => f.values.length > 1)) nonEmpty++
          }
        },
      ),
      { numRuns: 60 },
    )
    expect(nonEmpty).toBeGreaterThan(40)
  })

  it('answers every facet at once in one statement whose text holds no value', async () => {
    const facets = parseFacets(FACETS.map((f) => f.name).slice(0, 8).join(','), 'leak')
    const query = parseQuery(`+plugin:"x'; DROP TABLE events; --" -tags:"$1" summary:~"a.*b"`, { scope: 'leak' })
    const { text, params } = countStatement(query, { facets })
    for (const value of ["DROP TABLE", '$1"', 'a.*b']) expect(text.includes(value), value).toBe(false)
    expect(params).toContain("x'; DROP TABLE events; --")
    expect(text.match(/;/g)).toBeNull()
    const other = countStatement(parseQuery('+plugin:"y" -tags:"z" summary:~"c"', { scope: 'leak' }), { facets: parseFacets(FACETS.map((f) => f.name).slice(0, 8).map((n) => `${n}:3`).join(','), 'leak') })
    expect(other.text).toBe(text)
    expect(await pg.count(query, { facets })).toEqual(await memory.count(query, { facets }))
  })

  it('ends with SearchLimitError past the distinct values bound, as the memory store does', async () => {
    const query = parseQuery('*', { scope: 'service' })
    for (const facet of ['ip', 'port', 'tags']) {
      const request = { facets: parseFacets(facet, 'service'), distinctLimit: 3 }
      await expect(pg.count(query, request), facet).rejects.toThrow(SearchLimitError)
      await expect(memory.count(query, request), facet).rejects.toThrow(SearchLimitError)
    }
  })

  it('ends with SearchLimitError when the statement runs past the search timeout (a lock held elsewhere keeps it waiting)', async () => {
    const schema = freshSchema()
    schemas.push(schema)
    const slow = await PostgresStore.open(DATABASE_URL, { schema, max: 2, searchTimeoutMs: 200 })
    const other = connect(DATABASE_URL, { max: 1 })
    try {
      await slow.ingest(events.slice(0, 10))
      await other.begin(async (tx) => {
        await tx.unsafe(`LOCK TABLE "${schema}".events IN ACCESS EXCLUSIVE MODE`)
        await expect(slow.count(parseQuery('*', { scope: 'service' }), { facets: parseFacets('port', 'service') })).rejects.toThrow(SearchLimitError)
      })
      expect((await slow.count(parseQuery('*', { scope: 'service' }), { facets: [] })).total).toBeGreaterThan(0)
    } finally {
      await other.end({ timeout: 5 })
      await slow.close()
    }
  })
})
