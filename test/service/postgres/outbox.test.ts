/**
 * The transactional outbox: ingest through PostgresStore queues exactly the deliveries the
 * memory backend queues for the same registry and events (the matching rule is match.ts in
 * both: this checks the wiring around it: new events only, ingest order, every hook), and an
 * ingest that fails stores neither its events nor their deliveries.
 */
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import type { Event, HookEventType, Severity } from '../../../src/schema/index.js'
import { MemoryHookStore, MemoryStore, type NewHook, queueIngested, createHookIndex, type HookStore } from '../../../src/service/index.js'
import { PostgresHookStore, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { makeEvent } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 360_000 })

const SECRET = 'whsec_' + Buffer.alloc(32, 1).toString('base64')
const schemas: string[] = []

const resourceArb = fc.oneof(
  fc.record({ owner: fc.constantFrom('alice', 'bob'), type: fc.constant('domain' as const), value: fc.constantFrom('example.com', 'a.example.com', 'test') }),
  fc.record({ owner: fc.constantFrom('alice', 'bob'), type: fc.constant('ip' as const), value: fc.constantFrom('192.0.2.1', '2001:db8::1') }),
  fc.record({ owner: fc.constantFrom('alice', 'bob'), type: fc.constant('network' as const), value: fc.constantFrom('192.0.2.0/24', '10.0.0.0/8', '2001:db8::/32') }),
)
const hookArb = fc.record({
  owner: fc.constantFrom('alice', 'bob'),
  minSeverity: fc.constantFrom<Severity>('critical', 'high', 'medium', 'low', 'info'),
  eventTypes: fc.subarray<HookEventType>(['leak', 'service'], { minLength: 1 }),
})
const eventArb = fc.record({
  event_type: fc.constantFrom('leak', 'service'),
  host: fc.constantFrom('', 'example.com', 'www.example.com', 'a.example.com', 'notexample.com', 'x.test'),
  ip: fc.constantFrom('', '192.0.2.1', '::ffff:192.0.2.1', '192.0.2.77', '10.1.2.3', '2001:db8::1', '198.51.100.1'),
  severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info', '', 'weird'),
  port: fc.constantFrom('80', '443'),
})

describePostgres('PostgreSQL outbox', () => {
  let store: PostgresStore
  let hooks: PostgresHookStore
  beforeAll(async () => {
    const schema = freshSchema()
    schemas.push(schema)
    store = await PostgresStore.open(DATABASE_URL, { schema, max: 3 })
    hooks = await PostgresHookStore.attach(store, createHookIndex, { queueLimit: 1_000 })
  })
  afterAll(async () => {
    await hooks?.close()
    await store?.close()
  })
  const empty = () => store.sql`TRUNCATE events, resources, hooks, deliveries RESTART IDENTITY`

  /** The registry in both backends, then the events in batches; the queued fingerprints per hook, by hook position. */
  async function queued(backend: HookStore, ingest: (docs: Event[]) => Promise<unknown>, registry: Registry, batches: Event[][]): Promise<string[][]> {
    for (const r of registry.resources) await backend.addResource(r.owner, r.type, r.value)
    const ids: string[] = []
    for (const h of registry.hooks) ids.push((await backend.addHook(h)).id)
    for (const batch of batches) await ingest(batch)
    const out: string[][] = []
    for (const id of ids) out.push((await backend.deliveries(id)).map((d) => `${d.fingerprint} ${d.status}`))
    return out
  }

  it('queues the same deliveries as the memory backend, in ingest order (property)', async () => {
    let withDeliveries = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(resourceArb, { minLength: 1, maxLength: 4 }),
        fc.array(hookArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(eventArb, { maxLength: 8 }), { minLength: 1, maxLength: 3 }),
        async (resources, hookSpecs, batchSpecs) => {
          await empty()
          const registry: Registry = {
            resources,
            hooks: hookSpecs.map((h) => ({ ...h, url: 'http://127.0.0.1:9/hook', secret: SECRET })),
          }
          // Repeats of one document across batches are re-observations: queued once, as new.
          const batches = batchSpecs.map((b) =>
            b.map((e) =>
              makeEvent({
                event_type: e.event_type,
                host: e.host,
                ip: e.ip,
                port: e.port,
                summary: `${e.event_type} ${e.host} ${e.ip} ${e.severity}`,
                time: '2024-01-01T00:00:00Z',
                leak: { ...makeEvent({}).leak, severity: e.severity },
              }),
            ),
          )
          const memoryStore = new MemoryStore()
          const memoryHooks = new MemoryHookStore({ queueLimit: 1_000 })
          queueIngested(memoryStore, memoryHooks, () => 0)
          const expected = await queued(memoryHooks, async (docs) => memoryStore.ingest(docs), registry, batches)
          const got = await queued(hooks, (docs) => store.ingest(docs), registry, batches)
          expect(got).toEqual(expected)
          if (expected.some((list) => list.length > 0)) withDeliveries++
        },
      ),
      { numRuns: 40 },
    )
    // The registry and events are drawn so that most runs queue something.
    expect(withDeliveries).toBeGreaterThan(5)
  })

  it('stores neither the events nor their deliveries when the ingest transaction fails', async () => {
    await empty()
    await hooks.addResource('alice', 'domain', 'example.com')
    const hook = await hooks.addHook({ owner: 'alice', url: 'http://127.0.0.1:9/hook', secret: SECRET, minSeverity: 'info', eventTypes: ['service'] })
    const stop = store.addIngestHook(async (tx) => {
      // Runs after the outbox (hooks run in the order they were added): the deliveries exist, then the transaction fails.
      const [row] = await tx<{ n: number }[]>`SELECT count(*)::integer AS n FROM deliveries`
      expect(row!.n).toBe(1)
      throw new Error('disk on fire')
    })
    await expect(store.ingest([makeEvent({ host: 'www.example.com', ip: '192.0.2.1' })])).rejects.toThrow('disk on fire')
    stop()
    expect(await hooks.deliveries(hook.id)).toEqual([])
    expect(await store.host('192.0.2.1')).toEqual({ services: [], leaks: [] })
    // The same event again, now that nothing fails: stored as new and queued once.
    const result = await store.ingest([makeEvent({ host: 'www.example.com', ip: '192.0.2.1', summary: 'again' })])
    expect(result.accepted).toBe(1)
    expect(await hooks.deliveries(hook.id)).toHaveLength(1)
  })
})
dropSchemasAfterAll(schemas)

interface Registry {
  resources: { owner: string; type: 'domain' | 'ip' | 'network'; value: string }[]
  hooks: NewHook[]
}
