/**
 * The protocol objects' fields (src/query/protocol-fields.ts) answer alike in the evaluator, the
 * memory store and PostgreSQL: booleans, keywords, string lists element by element, banners as text.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { matches, parseQuery } from '../../../src/query/index.js'
import { MemoryStore } from '../../../src/service/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { makeEvent } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

const text = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')

describePostgres('protocol object fields in search', () => {
  const schema = freshSchema()
  dropSchemasAfterAll([schema])
  let pg: PostgresStore
  const memory = new MemoryStore()
  const events = [
    makeEvent({ ip: '192.0.2.1', redis: { version: '7.0.11', auth_required: false }, ssh: { ...makeEvent({}).ssh, kex_algorithms: ['curve25519-sha256', 'ecdh-sha2-nistp256'] } }),
    makeEvent({ ip: '192.0.2.2', redis: { version: '6.2.0', auth_required: true }, ftp: { banner: '220 (vsFTPd 3.0.3) ready' } }),
    makeEvent({ ip: '192.0.2.3', ftp: { banner: '220 ProFTPD Server' } }),
  ]
  const stored = events.map((e) => {
    const r = normalize(e, { fingerprint: 'missing' })
    if (!r.ok) throw new Error(JSON.stringify(r.errors))
    return r.event
  })
  beforeAll(async () => {
    pg = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    await pg.ingest(events)
    memory.ingest(events)
  })
  afterAll(async () => {
    await pg?.close()
  })

  it.each([
    ['redis.auth_required:true', ['192.0.2.2']],
    ['redis.auth_required:false', ['192.0.2.1']],
    ['-redis.auth_required:true', ['192.0.2.3', '192.0.2.1']],
    ['redis.version:*', ['192.0.2.2', '192.0.2.1']],
    ['redis.version:"7.0.11"', ['192.0.2.1']],
    ['ssh.kex_algorithms:curve25519-sha256', ['192.0.2.1']],
    ['ftp.banner:vsftpd', ['192.0.2.2']],
    ['ftp.banner:"ProFTPD Server"', ['192.0.2.3']],
  ])('%s', async (q, ips) => {
    const query = parseQuery(q, { scope: 'service' })
    const expected = stored.filter((e) => matches(query, e)).map(serializeEvent).sort()
    const fromPg = (await pg.search(query, { offset: 0, limit: 10 })).map(text)
    const fromMemory = (await memory.search(query, { offset: 0, limit: 10 })).map(text)
    expect([...fromPg].sort()).toEqual(expected)
    expect(fromMemory).toEqual(fromPg)
    expect(fromPg.map((t) => JSON.parse(t).ip).sort()).toEqual([...ips].sort())
  })
})
