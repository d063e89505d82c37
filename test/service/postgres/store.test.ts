/** The shared store case suite on PostgresStore: each case gets a store in a fresh schema. */
import { afterAll, vi } from 'vitest'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { storeCases } from '../store/store-cases.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

// Every case makes stores that connect and migrate a schema: slower than memory, so more time.
vi.setConfig({ testTimeout: 120_000 })

const schemas: string[] = []
const closing: Promise<void>[] = []
let previous: PostgresStore | undefined

describePostgres('PostgresStore', () => {
  // A case uses one store, so the previous one is closed when the next is made: the property
  // cases make a hundred, and their pools must not pile up.
  storeCases('PostgresStore', () => {
    if (previous) closing.push(previous.close().catch(() => {}))
    const schema = freshSchema()
    schemas.push(schema)
    previous = new PostgresStore(DATABASE_URL, { schema, max: 2 })
    return previous
  })
  afterAll(async () => {
    if (previous) await previous.close()
    await Promise.all(closing)
  })
  dropSchemasAfterAll(schemas)
})
