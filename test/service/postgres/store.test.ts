/** The shared store case suite on PostgresStore: each case gets a store in a fresh schema. */
import { afterAll, vi } from 'vitest'
import { connect, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { storeCases } from '../store/store-cases.js'
import { DATABASE_URL, describePostgres, freshSchema } from './database.js'

// Every case makes stores that connect and migrate a schema: slower than memory, so more time.
vi.setConfig({ testTimeout: 360_000 })

/** Stores retired so far: each closed, then its schema dropped, while the next cases run. */
const retiring: Promise<void>[] = []
/** What failed in them (thrown by the last hook: a rejection left alone meanwhile would be reported as unhandled). */
const failures: unknown[] = []
let previous: { store: PostgresStore; schema: string } | undefined
let admin: ReturnType<typeof connect> | undefined

/**
 * Closes a store and drops its schema. Done as each case ends rather than all at the end: the
 * property cases make a hundred stores, and dropping a hundred schemas in one hook took longer
 * than a hook may on a busy machine.
 */
async function retire({ store, schema }: { store: PostgresStore; schema: string }): Promise<void> {
  await store.close().catch(() => {})
  admin ??= connect(DATABASE_URL, { max: 1 })
  await admin`DROP SCHEMA IF EXISTS ${admin(schema)} CASCADE`
}

describePostgres('PostgresStore', () => {
  // A case uses one store, so the previous one is retired when the next is made: their pools
  // must not pile up.
  storeCases('PostgresStore', () => {
    if (previous) retiring.push(retire(previous).catch((error: unknown) => void failures.push(error)))
    const schema = freshSchema()
    previous = { store: new PostgresStore(DATABASE_URL, { schema, max: 2 }), schema }
    return previous.store
  })
  afterAll(async () => {
    if (previous) retiring.push(retire(previous).catch((error: unknown) => void failures.push(error)))
    try {
      await Promise.all(retiring)
    } finally {
      await admin?.end({ timeout: 5 })
    }
    if (failures.length > 0) throw failures[0]
  }, 300_000)
})
