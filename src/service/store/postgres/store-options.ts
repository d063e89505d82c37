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
  /**
   * Timeout of every other statement in ms (default DEFAULT_STATEMENT_TIMEOUT_MS): lookups,
   * ingest, the bulk export's reads, deletions (migrations excepted).
   */
  statementTimeoutMs?: number
  /**
   * Connections of the pool that searches and bulk exports use (default 3), apart from the
   * pool of lookups and ingest: costly statements wait for one another, never for a lookup's
   * connection, and a lookup never waits for theirs.
   */
  searchConnections?: number
  /**
   * Bytes of lookup answers this process keeps, invalidated by the database (lookups.ts,
   * docs/service.md "Kept lookup answers on PostgreSQL"); default 0 = none kept and no LISTEN
   * connection. `l9kit serve` sets the service config's `lookup_cache_bytes`.
   */
  lookupCacheBytes?: number
}

/** Default timeout of every statement but a search page's (ratelimit/budgets.ts has the service's). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000

/**
 * Work done inside each ingest transaction with the events it stored as new (in ingest
 * order): the hook store puts its deliveries there, so they commit with the events or not at all.
 */
export type IngestHook = (tx: TransactionSql, added: readonly Prepared[]) => Promise<unknown>
