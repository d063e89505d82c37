/**
 * The PostgreSQL store's kept lookup answers (store/postgres/lookup-cache.ts), with two stores
 * on one schema standing for two processes: what one writes evicts what the other keeps, told
 * by NOTIFY; a lookup that ran across a change is not kept; a lost LISTEN connection empties the
 * cache and stops it serving; the byte budget holds; and answers are the same bytes as a store
 * that keeps nothing, over generated writes. No sleeps: every wait is on the listener's events.
 */
import { once } from 'node:events'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Event } from '../../../src/schema/index.js'
import type { Lookup } from '../../../src/service/store/index.js'
import { ChangeListener, HEARTBEAT } from '../../../src/service/store/postgres/change-listener.js'
import { changePayloads, EVERYTHING, readChangePayload } from '../../../src/service/store/postgres/changes.js'
import { LookupCache } from '../../../src/service/store/postgres/lookup-cache.js'
import { parseConfig, startService } from '../../../src/service/index.js'
import { connect, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { makeEvent, request } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 300_000 })

describe('LookupCache without a database', () => {
  it('keeps answers only while up, within its byte budget, least recently used out first', async () => {
    const cache = new LookupCache(10_000)
    const load = (subject: string, bytes: number) => cache.load(subject, 'h', async () => subject, (value) => ({ value, bytes }))
    await load('ia', 100)
    expect(cache.get('ia', 'h')).toBeUndefined() // not listening: nothing kept
    cache.up()
    for (let i = 0; i < 100; i++) {
      await load(`i${i}`, 1_000)
      expect(cache.get('i0', 'h')).toBe('i0') // used each time, so never the least recent
      expect(cache.size).toBeLessThanOrEqual(10_000)
    }
    expect(cache.subjects).toBeGreaterThan(1)
    expect(cache.subjects).toBeLessThan(10)
    expect(cache.get('i1', 'h')).toBeUndefined()
    await load('ibig', 20_000) // larger than the budget: never kept
    expect(cache.get('ibig', 'h')).toBeUndefined()
    expect(cache.get('i99', 'h')).toBe('i99')
    cache.down()
    expect(cache.get('i99', 'h')).toBeUndefined()
    expect(cache.size).toBe(0)
  })

  it('evicts a changed name and every name above it, not its siblings or names below', async () => {
    const cache = new LookupCache(1 << 20)
    cache.up()
    const names = ['com', 'example.com', 'b.example.com', 'a.b.example.com', 'c.example.com', 'x.a.b.example.com', 'example.org']
    for (const name of names) await cache.load(`n${name}`, 'd', async () => name, (value) => ({ value, bytes: 10 }))
    cache.evict([], ['a.b.example.com'])
    expect(names.filter((n) => cache.get(`n${n}`, 'd') !== undefined)).toEqual(['c.example.com', 'x.a.b.example.com', 'example.org'])
  })

  it('does not keep an answer whose query ran across a change', async () => {
    const cache = new LookupCache(1 << 20)
    cache.up()
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const loading = cache.load('i1', 'h', () => held.then(() => 'old'), (value) => ({ value, bytes: 10 }))
    cache.evict(['192.0.2.200'], []) // another address: the epoch moves all the same
    release()
    expect(await loading).toBe('old')
    expect(cache.get('i1', 'h')).toBeUndefined()
  })

  it('tells large changes in several payloads under 8000 bytes, and too large ones as everything', () => {
    fc.assert(
      fc.property(fc.array(fc.ipV4(), { maxLength: 3_000 }), fc.array(fc.domain(), { maxLength: 500 }), (ips, names) => {
        const payloads = changePayloads({ ips: new Set(ips), names: new Set(names) })
        if (payloads[0] === EVERYTHING) return expect(payloads).toEqual([EVERYTHING])
        const heard = payloads.map((p) => readChangePayload(p)!)
        for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8_000)
        expect(new Set(heard.flatMap((c) => [...c.ips]))).toEqual(new Set(ips))
        expect(new Set(heard.flatMap((c) => [...c.names]))).toEqual(new Set(names))
      }),
      { numRuns: 30 },
    )
    const many = new Set(Array.from({ length: 20_000 }, (_, i) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`))
    expect(changePayloads({ ips: many, names: new Set() })).toEqual([EVERYTHING])
  })
})

const schema = freshSchema()
dropSchemasAfterAll([schema])

/** A lookup's answer as comparable text (null, or each event's JSON with its place). */
const shown = (answer: unknown) => JSON.stringify(answer, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v))
/** Whether the store answered from its kept answers: at once, not as a promise. */
const kept = (answer: unknown) => !(answer instanceof Promise)

describePostgres('PostgresStore lookup cache, two processes on one database', () => {
  let a: PostgresStore // keeps answers
  let b: PostgresStore // another process writing the same database (keeps answers too)
  let plain: PostgresStore // keeps nothing: what every answer must equal

  /**
   * Waits until `store` has heard everything committed so far: a marker sent now arrives after
   * every notification of an earlier commit (delivery is in commit order), so a write's own
   * notification, if it sent one, has been applied.
   */
  async function settled(store: PostgresStore): Promise<void> {
    const marker = `{"i":[],"n":[],"m":"${Math.random()}"}`
    const arrived = new Promise<void>((resolve) => {
      const seen = (_changed: unknown, payload?: string) => {
        if (payload !== marker) return
        store.lookups.listener!.off('heard', seen)
        resolve()
      }
      store.lookups.listener!.on('heard', seen)
    })
    await b.sql`SELECT pg_notify(${store.lookups.channel}, ${marker})`
    await arrived
  }
  const listening = async (store: PostgresStore) => {
    if (!store.lookups.cache.active) await once(store.lookups.listener!, 'listening')
  }
  const ev = (ip: string, host: string, fields: Partial<Event> & Record<string, unknown> = {}) =>
    makeEvent({ ip, host, port: '443', event_source: 'CacheTest', time: '2026-01-02T03:04:05Z', ...fields })

  beforeAll(async () => {
    a = await PostgresStore.open(DATABASE_URL, { schema, lookupCacheBytes: 1 << 20 })
    b = await PostgresStore.open(DATABASE_URL, { schema, lookupCacheBytes: 1 << 20 })
    plain = await PostgresStore.open(DATABASE_URL, { schema })
    await Promise.all([listening(a), listening(b)])
  })
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close(), plain?.close()])
  })

  it('evicts a kept host, domain or subdomain answer when the other process ingests, re-observes or deletes there', async () => {
    await b.ingest([ev('192.0.2.10', 'www.cache1.example'), ev('192.0.2.99', 'other.example')])
    await settled(a)
    await a.host('192.0.2.10')
    await a.domain('cache1.example')
    await a.subdomains('cache1.example')
    await a.host('192.0.2.99')
    expect(kept(a.host('192.0.2.10'))).toBe(true)
    expect(kept(a.domain('cache1.example'))).toBe(true)
    // Kept with its own bytes: not a view of the driver's socket read, which holds more.
    const held = (a.host('192.0.2.10') as Lookup).services[0]!
    expect(held.buffer.byteLength).toBe(held.length)

    // A new event at the address (under another name): the host answer goes, the unrelated one stays.
    await b.ingest([ev('192.0.2.10', 'mail.unrelated.example', { port: '25' })])
    await settled(a)
    const host = a.host('192.0.2.10')
    expect(kept(host)).toBe(false)
    expect(shown(await host)).toBe(shown(await plain.host('192.0.2.10')))
    expect((await host)!.services).toHaveLength(2)
    expect(kept(a.host('192.0.2.99'))).toBe(true)
    expect(kept(a.domain('cache1.example'))).toBe(true)

    // A new name under the domain: the domain's and its subdomains' answers go.
    await b.ingest([ev('192.0.2.11', 'deep.api.cache1.example')])
    await settled(a)
    expect(kept(a.domain('cache1.example'))).toBe(false)
    expect(kept(a.subdomains('cache1.example'))).toBe(false)
    expect(shown(await a.subdomains('cache1.example'))).toBe(shown(await plain.subdomains('cache1.example')))
    expect(shown(await a.domain('cache1.example'))).toBe(shown(await plain.domain('cache1.example')))

    // A later observation of a known event moves its last seen: the seen answer goes.
    await a.hostSeen('192.0.2.11')
    expect(kept(a.hostSeen('192.0.2.11'))).toBe(true)
    await b.ingest([ev('192.0.2.11', 'deep.api.cache1.example', { time: '2026-02-02T03:04:05Z' })])
    await settled(a)
    expect(kept(a.hostSeen('192.0.2.11'))).toBe(false)
    expect(shown(await a.hostSeen('192.0.2.11'))).toBe(shown(await plain.hostSeen('192.0.2.11')))

    // Deleting by tag.
    await b.ingest([ev('192.0.2.12', 'tagged.cache1.example', { tags: ['cache-test-delete'] })])
    await settled(a)
    expect((await a.host('192.0.2.12'))!.services).toHaveLength(1)
    expect(kept(a.host('192.0.2.12'))).toBe(true)
    expect(await b.deleteTagged('cache-test-delete')).toBe(1)
    await settled(a)
    expect(kept(a.host('192.0.2.12'))).toBe(false)
    expect((await a.host('192.0.2.12'))!.services).toHaveLength(0)
  })

  it('the writing process evicts at once, before its own notification comes back', async () => {
    await a.host('192.0.2.20')
    expect(kept(a.host('192.0.2.20'))).toBe(true)
    await a.ingest([ev('192.0.2.20', 'self.example')])
    expect(kept(a.host('192.0.2.20'))).toBe(false)
    expect((await a.host('192.0.2.20'))!.services).toHaveLength(1)
    await settled(a)
  })

  it('does not keep the answer of a lookup that was in flight when a change arrived', async () => {
    await b.ingest([ev('192.0.2.30', 'race.example')])
    await settled(a)
    let entered!: () => void
    let release!: () => void
    const inHook = new Promise<void>((resolve) => (entered = resolve))
    const released = new Promise<void>((resolve) => (release = resolve))
    a.lookups.cache.beforeKeep = () => {
      entered()
      return released
    }
    try {
      const inFlight = a.host('192.0.2.30') // its rows are read before the change below
      await inHook
      await b.ingest([ev('192.0.2.30', 'race.example', { port: '8443' })])
      await settled(a)
      release()
      expect((await inFlight)!.services).toHaveLength(1) // answered as read…
    } finally {
      a.lookups.cache.beforeKeep = undefined
    }
    // …but not kept: the next lookup reads the change.
    const next = a.host('192.0.2.30')
    expect(kept(next)).toBe(false)
    expect((await next)!.services).toHaveLength(2)
  })

  it('empties the cache and serves nothing from it while its LISTEN connection is lost', async () => {
    await a.host('192.0.2.40')
    expect(kept(a.host('192.0.2.40'))).toBe(true)
    expect(a.version).not.toBeUndefined()
    const down = once(a.lookups.listener!, 'down')
    const [row] = await b.sql<{ n: number }[]>`
      SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
      WHERE application_name = 'l9kit listen' AND query = ${`LISTEN "${a.lookups.channel}"`}`
    expect(row!.n).toBeGreaterThanOrEqual(2) // a's and b's (both listen on the schema's channel)
    await down
    expect(a.lookups.cache.size).toBe(0)
    expect(a.version).toBeUndefined() // the HTTP layer keeps no finished answers either
    const meanwhile = a.host('192.0.2.40')
    expect(kept(meanwhile)).toBe(false)
    await meanwhile
    // Listening again (by itself): answers are kept again.
    await listening(a)
    await listening(b)
    await a.host('192.0.2.40')
    expect(kept(a.host('192.0.2.40'))).toBe(true)
  })

  it('takes a connection that went silent (its heartbeat not heard back) as lost, and makes another', async () => {
    const saved = { ...HEARTBEAT }
    Object.assign(HEARTBEAT, { everyMs: 20, timeoutMs: 100 })
    const c = await PostgresStore.open(DATABASE_URL, { schema, lookupCacheBytes: 1 << 20 })
    Object.assign(HEARTBEAT, saved)
    try {
      await listening(c)
      await c.host('192.0.2.60')
      expect(kept(c.host('192.0.2.60'))).toBe(true)
      const down = once(c.lookups.listener!, 'down')
      c.lookups.listener!.deaf = true // notifications stop arriving, the connection stays open
      await down
      expect(kept(c.host('192.0.2.60'))).toBe(false)
      expect(c.version).toBeUndefined()
      c.lookups.listener!.deaf = false
      await listening(c)
      await c.host('192.0.2.60')
      expect(kept(c.host('192.0.2.60'))).toBe(true)
    } finally {
      await c.close()
    }
  })

  it('never serves when what the pool notifies does not reach the listener (as behind a transaction-mode pooler)', async () => {
    // NOTIFY is per database: a pool on the cluster's `postgres` database stands for a pooler that
    // lends the LISTEN connection to others. The same listener with a pool on its own database serves.
    const elsewhere = connect(DATABASE_URL.replace(/\/[^/]*$/, '/postgres'), { max: 1 })
    const here = connect(DATABASE_URL, { schema, max: 1 })
    const beat = { everyMs: 20, timeoutMs: 100 }
    const lost = new LookupCache(1 << 20)
    const deafListener = new ChangeListener(DATABASE_URL, schema, a.lookups.channel, lost, Promise.resolve(), elsewhere, beat)
    const heard = new LookupCache(1 << 20)
    const listener = new ChangeListener(DATABASE_URL, schema, a.lookups.channel, heard, Promise.resolve(), here, beat)
    // Every wait set up now, before either listener can get there.
    const events: string[] = []
    deafListener.on('listening', () => events.push('listening'))
    const twiceDown = new Promise<void>((resolve) => {
      let downs = 0
      deafListener.on('down', () => ++downs === 2 && resolve())
    })
    const up = once(listener, 'listening')
    try {
      // Its first heartbeat went unheard: the connection is replaced; and so is the next one.
      await twiceDown
      expect(events).toEqual([])
      expect(lost.active).toBe(false)
      await up
      expect(heard.active).toBe(true)
    } finally {
      await Promise.all([deafListener.close(), listener.close()])
      await Promise.all([elsewhere.end({ timeout: 1 }), here.end({ timeout: 1 })])
    }
  })

  it('answers the same bytes as a store that keeps nothing, over generated writes from both processes', async () => {
    const ips = ['198.18.0.1', '198.18.0.2', '2001:db8::5']
    const hosts = ['', 'gen.example', 'a.gen.example', 'b.a.gen.example']
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('ingest' as const),
        by: fc.constantFrom('a', 'b'),
        events: fc.array(fc.record({ ip: fc.constantFrom(...ips), host: fc.constantFrom(...hosts), port: fc.constantFrom('80', '443'), day: fc.integer({ min: 1, max: 28 }), tag: fc.constantFrom('t1', 't2') }), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant('delete' as const), by: fc.constantFrom('a', 'b'), tag: fc.constantFrom('t1', 't2') }),
    )
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        run++
        for (const w of writes) {
          const by = w.by === 'a' ? a : b
          if (w.kind === 'ingest') {
            const docs = w.events.map((e) => ev(e.ip, e.host, { port: e.port, tags: [e.tag, `run${run}`], time: `2026-03-${String(e.day).padStart(2, '0')}T00:00:00Z`, summary: 'gen' }))
            await by.ingest(docs)
          } else await by.deleteTagged(w.tag)
          await settled(a)
          for (const ip of ips) {
            await a.host(ip) // kept, then asked again below
            expect(shown(await a.host(ip))).toBe(shown(await plain.host(ip)))
            expect(shown(await a.hostSeen(ip))).toBe(shown(await plain.hostSeen(ip)))
          }
          for (const name of ['gen.example', 'a.gen.example', 'b.a.gen.example']) {
            await a.domain(name)
            expect(shown(await a.domain(name))).toBe(shown(await plain.domain(name)))
            expect(shown(await a.domainSeen(name))).toBe(shown(await plain.domainSeen(name)))
            expect(shown(await a.subdomains(name))).toBe(shown(await plain.subdomains(name)))
          }
        }
      }),
      { numRuns: 15 },
    )
  })

  it('over HTTP: a finished /host or /domain answer the service kept goes when the other process changes it', async () => {
    const config = parseConfig(JSON.stringify({ plans: { anonymous: { rate: null } }, lookup_cache_bytes: 1 << 20 }), 'test')
    const service = await startService({ store: a, config, host: '127.0.0.1', port: 0 })
    const events = async (path: string) => {
      const answer = await request(service.url, path)
      expect(answer.status).toBe(200)
      return (answer.json as { Services: unknown[] }).Services.length
    }
    try {
      await b.ingest([ev('192.0.2.50', 'www.http.example')])
      await settled(a)
      for (let i = 0; i < 2; i++) expect(await events('/host/192.0.2.50')).toBe(1)
      for (let i = 0; i < 2; i++) expect(await events('/domain/http.example')).toBe(1)
      // Elsewhere: the kept /host answer stays right (the store's hostVersion), the /domain one is rebuilt.
      await b.ingest([ev('192.0.2.51', 'elsewhere.example')])
      await settled(a)
      expect(await events('/host/192.0.2.50')).toBe(1)
      await b.ingest([ev('192.0.2.50', 'api.http.example', { port: '8080' })])
      await settled(a)
      expect(await events('/host/192.0.2.50')).toBe(2)
      expect(await events('/domain/http.example')).toBe(2)
    } finally {
      await service.close(100)
    }
  })

  it('keeps within its byte budget', async () => {
    await b.ingest(Array.from({ length: 60 }, (_, i) => ev(`203.0.113.${i}`, `n${i}.budget.example`, { summary: 'x'.repeat(500) })))
    await settled(a)
    a.useLookupCache(8_000)
    try {
      for (let i = 0; i < 60; i++) {
        await a.host(`203.0.113.${i}`)
        expect(a.lookups.cache.size).toBeLessThanOrEqual(8_000)
      }
      expect(a.lookups.cache.subjects).toBeGreaterThan(0)
      expect(a.lookups.cache.subjects).toBeLessThan(60)
    } finally {
      a.useLookupCache(1 << 20)
    }
  })
})
