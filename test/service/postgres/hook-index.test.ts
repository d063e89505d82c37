/**
 * The matching index each process keeps for its ingest transactions (migration 0006): it is
 * rebuilt when the registry's version moves, whichever process changed the registry, so an
 * ingest never matches against a registry older than the one its transaction can read. Two
 * stores on one schema stand for two processes.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { createHookIndex } from '../../../src/service/index.js'
import { PostgresHookStore, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { makeEvent } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 180_000 })
const schemas: string[] = []
const SECRET = 'whsec_' + Buffer.alloc(32, 4).toString('base64')

describePostgres('PostgreSQL hook matching index', () => {
  const opened: { store: PostgresStore; hooks: PostgresHookStore }[] = []
  const open = async (schema: string) => {
    const store = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    const hooks = await PostgresHookStore.attach(store, createHookIndex)
    opened.push({ store, hooks })
    return { store, hooks }
  }
  let a: { store: PostgresStore; hooks: PostgresHookStore }
  let b: { store: PostgresStore; hooks: PostgresHookStore }
  beforeAll(async () => {
    const schema = freshSchema()
    schemas.push(schema)
    a = await open(schema)
    b = await open(schema)
  })
  afterAll(async () => {
    for (const o of opened) {
      await o.hooks.close()
      await o.store.close()
    }
  })

  it('follows registry changes made by another process, and keeps its index while nothing changes', async () => {
    let port = 1000
    const event = (host: string) => makeEvent({ host, ip: '192.0.2.40', port: String(port++) })
    await b.store.ingest([event('a.index.test')]) // no hook yet: B caches an empty index
    const hook = await a.hooks.addHook({ owner: 'alice', url: 'http://127.0.0.1:9/', minSeverity: 'info', eventTypes: ['service'], secret: SECRET })
    const resource = await a.hooks.addResource('alice', 'domain', 'index.test')
    await b.store.ingest([event('b.index.test')])
    expect((await b.hooks.deliveries(hook.id)).length).toBe(1)
    const kept = b.hooks.cachedIndex
    await b.store.ingest([event('c.index.test')])
    expect(b.hooks.cachedIndex).toBe(kept) // same version: not rebuilt
    expect((await b.hooks.deliveries(hook.id)).length).toBe(2)

    await a.hooks.removeResource('alice', resource.id)
    await b.store.ingest([event('d.index.test')])
    expect((await b.hooks.deliveries(hook.id)).length).toBe(2)
    expect(b.hooks.cachedIndex).not.toBe(kept)

    // A hook disabled in one process is left out by the other's next ingest.
    await a.hooks.addResource('alice', 'domain', 'index.test')
    const [claimed] = await a.hooks.claim(Date.now(), 10_000, 1)
    await a.hooks.settle(claimed!.delivery.id, { kind: 'failed', status: 410, error: 'HTTP 410', disable: 'the receiver answered 410 Gone' }, Date.now())
    await b.store.ingest([event('e.index.test')])
    expect((await b.hooks.deliveries(hook.id)).length).toBe(2)
    await a.hooks.enableHook('alice', hook.id)
    await b.store.ingest([event('f.index.test')])
    expect((await b.hooks.deliveries(hook.id, 'pending')).length).toBe(1)
  })

  dropSchemasAfterAll(schemas)
})
