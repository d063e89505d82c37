/**
 * What only the PostgreSQL store has to show for plugins and the live stream: another process's
 * new events reach this one's listener (LISTEN/NOTIFY with ids, rows read back), a batch whose ids
 * exceed one NOTIFY payload arrives whole, plugin counts sum both processes' ingests, and
 * migration 0007 counts the events a database already held.
 */
import { afterAll, expect, it, vi } from 'vitest'
import { nowInstant } from '../../../src/service/index.js'
import { connect, migrate, PostgresStore, readMigrations } from '../../../src/service/store/postgres/index.js'
import { NS_PER_MINUTE } from '../../../src/service/store/plugin-windows.js'
import { formatTime } from '../../../src/time/index.js'
import { makeEvent } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 360_000 })

const schemas = [freshSchema(), freshSchema()]
dropSchemasAfterAll(schemas)
const stores: PostgresStore[] = []
afterAll(async () => {
  for (const s of stores) await s.close()
})
const open = async (schema: string) => {
  const store = await PostgresStore.open(DATABASE_URL, { schema, max: 3 })
  stores.push(store)
  return store
}

describePostgres('PostgreSQL store: plugins and new events across processes', () => {
  it('hears another store’s new events, in order, a batch of 3 000 whole (several notifications)', async () => {
    const [a, b] = [await open(schemas[0]!), await open(schemas[0]!)]
    const heard: string[] = []
    const feed = a.onNewEvent((item) => heard.push(item.event().summary))
    await feed.ready
    const docs = Array.from({ length: 3000 }, (_, i) => makeEvent({ ip: `10.${(i >> 8) & 255}.${i & 255}.1`, summary: `n${i}` }))
    await b.ingest(docs)
    await b.ingest(docs.slice(0, 10)) // duplicates: nothing new
    await a.ingest([makeEvent({ ip: '192.0.2.77', summary: 'own' })])
    while (heard.length < 3001) await new Promise((r) => setTimeout(r, 25)) // (bounded by the test's timeout)
    expect(heard).toEqual([...docs.map((d) => d.summary), 'own'])
    feed.stop()
  })

  it('counts both stores’ ingests once each', async () => {
    const [a, b] = [stores[0]!, stores[1]!]
    const time = formatTime(nowInstant() - 2n * NS_PER_MINUTE)
    const event_fingerprint = 'a'.repeat(64) // identities then differ by address and port only
    await Promise.all([
      a.ingest(Array.from({ length: 50 }, (_, i) => makeEvent({ event_source: 'Shared', ip: '192.0.2.1', port: String(i), time, event_fingerprint }))),
      b.ingest(Array.from({ length: 70 }, (_, i) => makeEvent({ event_source: 'Shared', ip: '192.0.2.2', port: String(i), time, event_fingerprint }))),
    ])
    await b.ingest([makeEvent({ event_source: 'Shared', ip: '192.0.2.1', port: '3', time, event_fingerprint })])
    expect(await a.plugin('Shared', nowInstant())).toEqual({ name: 'Shared', count1h: 120, count24h: 120, count7d: 120 })
  })

  it('migration 0007 counts the events a database held before it, each once by first seen', async () => {
    const schema = schemas[1]!
    const sql = connect(DATABASE_URL, { schema, max: 1 })
    try {
      await migrate(sql, schema, readMigrations().filter((m) => m.version < 7))
      const now = nowInstant()
      const row = (i: number, source: string, first: bigint) => {
        const json = JSON.stringify({ event_type: 'service', event_source: source, summary: `old ${i}` })
        return sql`INSERT INTO events (identity, json, event_type, severity, ip, host_rev, first_seen, last_seen)
          VALUES (${Buffer.from(`id${i}`)}, ${json}, 'service', '', '192.0.2.1', NULL, ${first.toString()}::numeric, ${now.toString()}::numeric)`
      }
      await row(1, 'Old', now - 10n * NS_PER_MINUTE)
      await row(2, 'Old', now - 3n * 60n * NS_PER_MINUTE)
      await row(3, 'Older', now - 30n * 24n * 60n * NS_PER_MINUTE)
      await row(4, '', now)
    } finally {
      await sql.end({ timeout: 5 })
    }
    const store = await open(schema)
    expect(await store.plugins(nowInstant())).toEqual([
      { name: 'Old', count1h: 1, count24h: 2, count7d: 2 },
      { name: 'Older', count1h: 0, count24h: 0, count7d: 0 },
    ])
  })
})
