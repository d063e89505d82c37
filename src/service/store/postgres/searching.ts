/**
 * The PostgreSQL store's searches, counts and bulk reads (search.ts and count.ts have their SQL), on a pool of their
 * own: a few connections (`searchConnections`) apart from the pool that answers lookups and
 * takes ingests, so costly statements queue behind one another and never hold a connection a
 * lookup needs. Every statement there has a timeout (a page's `searchTimeoutMs`, a bulk read's
 * `statementTimeoutMs`) and is cancelled when the request's signal aborts.
 */
import type { Sql } from 'postgres'
import type { Query } from '../../../query/index.js'
import { DEFAULT_SEARCH_TIMEOUT_MS, type SearchAllOptions, type SearchOptions, type SearchPage } from '../search.js'
import type { SeenEvent } from '../types.js'
import { connect } from './connect.js'
import { searchAll, searchByResource, searchPage } from './search.js'
import { countMatches } from './count.js'
import type { CountRequest, CountResult } from '../count.js'
import { DEFAULT_STATEMENT_TIMEOUT_MS, type PostgresStoreOptions } from './store-options.js'

export class PostgresSearch {
  readonly sql: Sql
  private readonly pageMs: number
  private readonly statementMs: number

  constructor(
    url: string,
    options: PostgresStoreOptions,
    private readonly opening: Promise<void>,
  ) {
    this.pageMs = options.searchTimeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS
    this.statementMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS
    const schema = options.schema ?? 'public'
    // Named apart, so an operator (or a test) sees which statements are searches, and of which schema.
    const application = `l9kit search ${schema}`.slice(0, 63)
    this.sql = connect(url, { schema, max: options.searchConnections ?? 3, statementTimeoutMs: this.statementMs, application })
  }

  async page(query: Query, page: SearchPage, options: SearchOptions = {}): Promise<Buffer[]> {
    await this.opening
    return searchPage(this.sql, query, page, { timeoutMs: this.pageMs, signal: options.signal })
  }

  async count(query: Query, request: CountRequest, options: SearchOptions = {}): Promise<CountResult> {
    await this.opening
    return countMatches(this.sql, query, request, { timeoutMs: this.pageMs, signal: options.signal })
  }

  async *all(query: Query, options: SearchAllOptions = {}): AsyncIterable<Buffer> {
    await this.opening
    yield* searchAll(this.sql, query, options.batch ?? 1000, { timeoutMs: this.statementMs, signal: options.signal })
  }

  async *byResource(query: Query, options: SearchAllOptions = {}): AsyncIterable<SeenEvent> {
    await this.opening
    yield* searchByResource(this.sql, query, options.batch ?? 1000, { timeoutMs: this.statementMs, signal: options.signal })
  }

  close(timeoutSeconds: number): Promise<void> {
    return this.sql.end({ timeout: timeoutSeconds })
  }
}
