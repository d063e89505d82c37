/**
 * A large ingest into the PostgreSQL store prepares its documents on worker threads
 * (PostgresStore.ingestPrepared), as it does for the memory store: the outcome must be that of
 * the in-thread path — report, rejected lines, duplicates, stored bytes and listener calls.
 */
import { afterAll, expect, it, vi } from 'vitest'
import { ingestText, type IngestedEvent } from '../../../src/service/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { mixedBody } from '../ingest/mixed-body.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 180_000 })

const schemas: string[] = []
const stores: PostgresStore[] = []

async function run(body: Buffer, ips: string[], workers: boolean) {
  const schema = freshSchema()
  schemas.push(schema)
  const store = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
  stores.push(store)
  let prepared = 0
  if (workers) {
    const ingestPrepared = store.ingestPrepared.bind(store)
    store.ingestPrepared = (items) => ((prepared += items.length), ingestPrepared(items))
  } else Object.defineProperty(store, 'ingestPrepared', { value: undefined }) // the in-thread path
  const heard: { json: string; duplicate: boolean; summary: string }[] = []
  store.onIngest((e: IngestedEvent) => heard.push({ json: e.json, duplicate: e.duplicate, summary: e.event.summary }))
  const report = await ingestText(store, body)
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
    expect(offloaded.prepared).toBeGreaterThan(3000) // most of the body went through the workers
    expect(inThread.prepared).toBe(0)
    expect(offloaded.report).toEqual(inThread.report)
    expect(offloaded.heard).toEqual(inThread.heard)
    expect(offloaded.stored).toEqual(inThread.stored)
    expect(offloaded.size).toBe(inThread.size)
    expect(inThread.report.duplicates).toBeGreaterThan(200)
  })
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()))
  })
  dropSchemasAfterAll(schemas)
})
