/**
 * A large ingest into the PostgreSQL store prepares its documents on worker threads
 * (PostgresStore.ingestPrepared), as it does for the memory store: the outcome must be that of
 * the in-thread path — report, rejected lines, duplicates, stored bytes and listener calls.
 */
import { afterAll, it, vi } from 'vitest'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { expectSameOutcome, ingestWatched, mixedBody } from '../ingest/mixed-body.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 540_000 })

const schemas: string[] = []
const stores: PostgresStore[] = []

async function run(body: Buffer, ips: string[], workers: boolean) {
  const schema = freshSchema()
  schemas.push(schema)
  const store = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
  stores.push(store)
  const { report, heard, prepared } = await ingestWatched(store, body, workers)
  const stored: string[][] = []
  for (const ip of ips) {
    const l = (await store.host(ip))!
    stored.push([...l.services, ...l.leaks].map((b) => Buffer.from(b).toString('utf8')))
  }
  return { report, heard, stored, size: store.size, prepared }
}

describePostgres('PostgresStore, large ingest on worker threads', () => {
  it('gives the same report, stored bytes and listener calls as the in-thread path', async () => {
    const { body, ips } = mixedBody()
    const inThread = await run(body, ips, false)
    const offloaded = await run(body, ips, true)
    expectSameOutcome(inThread, offloaded)
  })
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()))
  })
  dropSchemasAfterAll(schemas)
})
