/**
 * The store behind `l9kit serve`: memory by default, PostgreSQL with `--store postgres://…`
 * (or L9KIT_DATABASE_URL). The PostgreSQL code is imported only when it is asked for.
 */
import { UsageError } from '../command.js'
import { createHookIndex, type HookStore, MemoryStore, type Store } from '../../service/index.js'
import { isPostgresUrl, shownUrl, storeUrlProblem } from '../../service/store/postgres/url.js'

export interface OpenedStore {
  store: Store
  /** The hook backend that goes with the store (undefined: the service's in-memory default). */
  hooks?: HookStore
  /** True when the data outlives the process (then the bundled data is not loaded into it). */
  persistent: boolean
  /** `memory`, or the URL without its password. */
  shown: string
  close(): Promise<void>
}

/** The `--store` value (or the environment's), checked. */
export function storeUrl(option: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const url = option ?? (env.L9KIT_DATABASE_URL === '' ? undefined : env.L9KIT_DATABASE_URL)
  if (url === undefined || url === 'memory') return undefined
  if (!isPostgresUrl(url)) {
    throw new UsageError(`serve: --store must be 'memory' or a postgres:// URL (got ${shownUrl(url)})`)
  }
  const problem = storeUrlProblem(url)
  if (problem !== null) throw new UsageError(`serve: the store URL ${shownUrl(url)}${option === undefined ? ' (from L9KIT_DATABASE_URL)' : ''} ${problem}`)
  return url
}

/** Opens the store: migrates a PostgreSQL schema first; a database that cannot be reached is a clear error. */
export async function openStore(url: string | undefined, schema: string | undefined, queueLimit: number): Promise<OpenedStore> {
  if (url === undefined) return { store: new MemoryStore(), persistent: false, shown: 'memory', close: async () => {} }
  const pg = await import('../../service/store/postgres/index.js')
  const shown = pg.shownUrl(url)
  let store
  try {
    store = await pg.PostgresStore.open(url, { schema })
  } catch (error) {
    throw new UsageError(`serve: cannot use the store ${shown}: ${(error as Error).message}`)
  }
  const hooks = await pg.PostgresHookStore.attach(store, createHookIndex, { queueLimit })
  return {
    store,
    hooks,
    persistent: true,
    shown,
    close: async () => {
      await hooks.close()
      await store.close()
    },
  }
}
