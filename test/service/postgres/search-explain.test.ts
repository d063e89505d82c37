/**
 * The selective searches use indexes: on a table with enough rows (and statistics), EXPLAIN of
 * each kind of selective query shows an index scan and no sequential scan of `events`.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { countryCodes, parseQuery, type Scope } from '../../../src/query/index.js'
import { countryNames } from '../../../src/query/countries.js'
import { emptyEvent, type Event } from '../../../src/schema/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { pageStatement } from '../../../src/service/store/postgres/search.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 360_000 })

const ROWS = 20_000
/** 200 countries, each 1 row in 200: half by code, half by name. */
const CODES = countryCodes().slice(0, 200)

function row(i: number): Event {
  const e = emptyEvent()
  e.event_type = i % 4 === 0 ? 'leak' : 'service'
  e.event_source = `Plugin${i % 40}`
  e.event_fingerprint = i.toString(16).padStart(64, '0')
  e.ip = i % 5 === 0 ? `2001:db8:${(i >> 8).toString(16)}::${(i & 255).toString(16)}` : `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
  e.host = `h${i % 7}.d${Math.floor(i / 7)}.test`
  e.port = String(1000 + (i % 500))
  e.summary = `event ${i}`
  e.time = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z')
  e.leak.severity = e.event_type === 'leak' ? ['critical', 'high', 'medium', 'low', 'info'][i % 5]! : ''
  const code = CODES[i % CODES.length]!
  if ((i >> 1) % 2 === 0) e.geoip.country_iso_code = code
  else e.geoip.country_name = countryNames(code)[0]!
  e.network.asn = 64_000 + (i % 1000)
  return e
}

describePostgres('PostgresStore search plans', () => {
  const schemas: string[] = []
  let store: PostgresStore
  beforeAll(async () => {
    const schema = freshSchema()
    schemas.push(schema)
    store = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    for (let from = 0; from < ROWS; from += 5000) await store.ingest(Array.from({ length: 5000 }, (_, k) => row(from + k)))
    await store.sql`ANALYZE events`
  })
  afterAll(async () => {
    await store?.close()
  })
  dropSchemasAfterAll(schemas)

  const cases: [string, string, Scope, RegExp][] = [
    ['every event (first page)', '*', 'service', /^events_recent$/],
    // Addresses and ranges by the btree (migration 0008): the planner makes a range of `<<=`.
    ['an address', 'ip:10.0.3.4', 'service', /^events_ip$/],
    ['a CIDR range', 'ip:10.0.3.0/24', 'service', /^events_ip$/],
    ['an IPv6 range', 'ip:2001:db8:3::/48', 'service', /^events_ip$/],
    ['an address written as IPv4-mapped IPv6', 'ip:::ffff:10.0.3.4', 'service', /^events_ip$/],
    ['a host and the names under it', 'host:d77.test', 'service', /^events_host_rev$/],
    ['a plugin', 'plugin:Plugin7', 'service', /^events_source$/],
    ['a severity', 'severity:critical', 'leak', /^events_severity$/],
    ['a port', 'port:1234', 'service', /^events_port$/],
    ['a country by name', 'country:Germany', 'service', /^events_country_(code|name)$/],
    ['a country by code', 'country:BR', 'service', /^events_country_code$/],
    ['a fingerprint', `l9fp:${(1234).toString(16).padStart(64, '0')}`, 'service', /^events_fingerprint$/],
    ['a time range', '+time:>2024-01-05 +time:<2024-01-06', 'service', /^events_recent$/],
    ['a selective term with a text word', '+host:d5.test +event', 'service', /^events_host_rev$/],
    ['a selective term with an exclusion', '+plugin:Plugin3 -port:1003', 'service', /^events_source$/],
  ]

  /** The node types and the indexes of the plan PostgreSQL chooses for the first page of `q`. */
  async function planOf(q: string, scope: Scope): Promise<{ nodes: string[]; indexes: string[] }> {
    const { text, params } = pageStatement(parseQuery(q, { scope }), { offset: 0, limit: 20 })
    const [row0] = (await store.sql.unsafe(`EXPLAIN (FORMAT JSON) ${text}`, params)) as unknown as { 'QUERY PLAN': unknown }[]
    const plan = JSON.stringify(row0!['QUERY PLAN'])
    return { nodes: [...plan.matchAll(/"Node Type":"([^"]+)"/g)].map((m) => m[1]!), indexes: [...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]!) }
  }

  it.each(cases)('%s (%s) reads its index, not the whole table', async (_name, q, scope, index) => {
    const { nodes, indexes } = await planOf(q, scope)
    expect(nodes, q).not.toContain('Seq Scan')
    expect(indexes.some((name) => index.test(name)), `${q}: ${indexes.join(', ')}`).toBe(true)
    // Only `*` and time ranges walk the whole time order.
    if (!String(index).includes('recent')) expect(indexes, q).not.toContain('events_recent')
  })

  it('(the check sees a query no index narrows: it walks the whole time order)', async () => {
    expect((await planOf('summary:nowhere', 'service')).indexes).toEqual(['events_recent'])
  })
})
