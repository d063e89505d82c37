/**
 * The web view's pages that search (the index's latest findings, the search results) on the
 * PostgreSQL store: the same pages, byte for byte, as on the memory store with the same events.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { MemoryStore, type RunningService } from '../../../src/service/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { serveForTest, unlimitedConfig } from '../support.js'
import { fixtureDocs, HOST } from '../web/fixture.js'
import { BROWSER_ACCEPT, getRaw } from '../web/http-get.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

const schemas: string[] = []
dropSchemasAfterAll(schemas)

describePostgres('web pages on PostgreSQL', () => {
  let pg: PostgresStore
  let onPg: RunningService
  let onMemory: RunningService

  beforeAll(async () => {
    const schema = freshSchema()
    schemas.push(schema)
    pg = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    expect((await pg.ingest(fixtureDocs())).rejected).toEqual([])
    const memory = new MemoryStore()
    expect((await memory.ingest(fixtureDocs())).rejected).toEqual([])
    onPg = await serveForTest({ store: pg, config: unlimitedConfig() })
    onMemory = await serveForTest({ store: memory, config: unlimitedConfig() })
  }, 180_000)
  afterAll(async () => {
    await onPg?.close(100)
    await pg?.close()
  })

  it('draws the index, search results, a query error and the host page as the memory store does', async () => {
    for (const path of ['/', '/search?q=%2Bport%3A443&scope=service', '/search?q=*&scope=leak', '/search?q=plugin%3ADotEnvPlugin', '/search?q=countri%3ADE', `/host/${HOST}`]) {
      const [a, b] = await Promise.all([getRaw(onPg.url, path, { accept: BROWSER_ACCEPT }), getRaw(onMemory.url, path, { accept: BROWSER_ACCEPT })])
      expect(a.status, path).toBe(b.status)
      expect(a.body.toString('utf8'), path).toBe(b.body.toString('utf8'))
    }
    const results = (await getRaw(onPg.url, '/search?q=*&scope=leak', { accept: BROWSER_ACCEPT })).body.toString('utf8')
    expect(results.match(/<tr class="event"/g)).toHaveLength(5)
  })
})
