/** The PostgreSQL store's options, and the hook it runs inside each ingest transaction. */
import type { TransactionSql } from 'postgres'
import type { Prepared } from '../prepare.js'

export interface PostgresStoreOptions {
  /** Schema holding the tables (default `public`). */
  schema?: string
  /** Pool size (default 10). */
  max?: number
  /** Statement timeout of one search page in ms (default DEFAULT_SEARCH_TIMEOUT_MS); past it, SearchLimitError. */
  searchTimeoutMs?: number
}

/**
 * Work done inside each ingest transaction with the events it stored as new (in ingest
 * order): the hook store puts its deliveries there, so they commit with the events or not at all.
 */
export type IngestHook = (tx: TransactionSql, added: readonly Prepared[]) => Promise<unknown>
