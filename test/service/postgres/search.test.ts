/**
 * Search on PostgreSQL against the evaluator and the memory store's index path, at volume: one
 * generated event set loaded once into both stores, then thousands of generated queries, each
 * answered by all three the same. Then hostile queries: values never reach the SQL text, and
 * running them never errors.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { strictEvent } from '../../../src/conformance/gen/event.js'
import { queryFor } from '../../../src/conformance/gen/query.js'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { matches, parseQuery, type Query, type Scope } from '../../../src/query/index.js'
import { toSql } from '../../../src/query/sql.js'
import type { Event } from '../../../src/schema/index.js'
import { MemoryStore } from '../../../src/service/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 360_000 })

const schemas: string[] = []
const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')

describePostgres('PostgresStore search', () => {
  let pg: PostgresStore
  const memory = new MemoryStore()
  let stored: Event[] = []
  let events: Event[] = []

  beforeAll(async () => {
    // A fixed sample: 400 events, some sharing addresses, names and countries so terms match several.
    const arb = fc.array(strictEvent({ type: fc.constantFrom('service', 'leak'), ip: fc.constantFrom('10.0.0.1', '10.0.1.7', '2001:db8::1', '::ffff:10.0.0.9', '', '192.0.2.77'), host: fc.constantFrom('a.example.com', 'example.com', 'B.Example.Com.', 'other.test', '') }), { minLength: 400, maxLength: 400 })
    events = fc.sample(arb, { numRuns: 1, seed: 30 })[0]!.map((e, i) => ({ ...e, event_fingerprint: i.toString(16).padStart(64, '0') }))
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

  const answers = async (query: Query) => {
    const expected = stored.filter((e) => matches(query, e)).map(serializeEvent).sort()
    const fromPg = (await pg.search(query, { offset: 0, limit: 1000 })).map(text)
    const fromMemory = (await memory.search(query, { offset: 0, limit: 1000 })).map(text)
    return { expected, fromPg, fromMemory }
  }

  it('gives the evaluator’s matches in both stores, in the same order, for hundreds of generated queries over 400 events (property)', async () => {
    let nonEmpty = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<Scope>('service', 'leak', 'any'), fc.integer({ min: 0, max: events.length - 1 }), async (scope, at) => {
        const texts = fc.sample(queryFor(events.slice(at, at + 5), scope), { numRuns: 4, seed: at })
        for (const q of texts) {
          const query = parseQuery(q, { scope })
          const { expected, fromPg, fromMemory } = await answers(query)
          expect([...fromPg].sort(), q).toEqual(expected)
          expect(fromMemory, q).toEqual(fromPg)
          if (expected.length > 0) nonEmpty++
        }
      }),
      { numRuns: 100 },
    )
    // The generator is meant to find something most of the time.
    expect(nonEmpty).toBeGreaterThan(200)
  })

  it('pages the same way in both stores', async () => {
    for (const q of ['*', 'country:*', '-ip:10.0.0.0/8', 'host:example.com']) {
      const query = parseQuery(q, { scope: 'service' })
      for (const offset of [0, 7, 50]) {
        const page = { offset, limit: 9 }
        expect((await pg.search(query, page)).map(text), q).toEqual((await memory.search(query, page)).map(text))
      }
    }
  })

  it('never puts a value in the SQL text, and runs hostile values without an error (property)', async () => {
    const hostile = fc.oneof(
      fc.constantFrom("'; DROP TABLE events; --", '$1', '\\', "O'Brien", '%_', '(?<!x)', '\u00e9\u0301', 'x\u2028y', '😀', '"', "''", '$$', 'E\'\\x00\''),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    )
    const fields = fc.constantFrom('plugin', 'summary', 'http.header.server', 'tags', 'ssl.certificate.cn', 'network.organization_name', 'country', 'leak.severity', 'service.software.modules.name', 'http.title')
    const op = fc.constantFrom(':', ':=', ':~')
    const quote = (v: string) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`
    await fc.assert(
      fc.asyncProperty(fields, op, hostile, fc.boolean(), async (field, o, value, bare) => {
        const q = bare ? quote(value) : `${field}${o}${quote(o === ':~' ? value.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&') : value)}`
        let query: Query
        try {
          query = parseQuery(q, { scope: 'leak' })
        } catch {
          return // refused with a QueryError: fine, the HTTP layer answers 400
        }
        const sql = toSql(query.cond)
        if (value.length >= 3) expect(sql.text.includes(value), `${q} → ${sql.text}`).toBe(false)
        // Another value gives the same SQL text: the text is the shape only (a country's shape
        // depends on whether the value names a known country, so it is left out here).
        if (field !== 'country' || bare) {
          const other = bare ? quote('zzz') : `${field}${o}${quote('zzz')}`
          expect(toSql(parseQuery(other, { scope: 'leak' }).cond).text).toBe(sql.text)
        }
        const { expected, fromPg } = await answers(query)
        expect([...fromPg].sort()).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })
})
