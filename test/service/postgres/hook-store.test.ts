/** The shared hook store case suite on PostgresHookStore: each case gets a fresh schema. */
import { vi } from 'vitest'
import { createHookIndex, type HookStore } from '../../../src/service/index.js'
import { PostgresHookStore, PostgresStore } from '../../../src/service/store/postgres/index.js'
import { CASES_QUEUE_LIMIT, hookStoreCases } from '../store/hook-store-cases.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 180_000 })

const schemas: string[] = []
const stores = new Map<HookStore, PostgresStore>()

describePostgres('PostgresHookStore', () => {
  hookStoreCases(
    'PostgresHookStore',
    async () => {
      const schema = freshSchema()
      schemas.push(schema)
      const store = await PostgresStore.open(DATABASE_URL, { schema, max: 3 })
      const hooks = await PostgresHookStore.attach(store, createHookIndex, { queueLimit: CASES_QUEUE_LIMIT })
      stores.set(hooks, store)
      return hooks
    },
    async (hooks) => {
      await (hooks as PostgresHookStore).close()
      await stores.get(hooks)?.close()
      stores.delete(hooks)
    },
  )
  dropSchemasAfterAll(schemas)
})
