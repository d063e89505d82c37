/**
 * The one LISTEN connection of a process whose PostgreSQL store keeps lookup answers: it hears
 * every write's changes (changes.ts) and evicts them from the cache (lookup-cache.ts). Its own
 * connection, not the driver's shared listener (which the live stream uses): the cache must
 * know the moment that connection is lost, to stop serving what it keeps, and the driver's
 * listener re-listens silently. While it is not listening (not yet, or the connection went and
 * is being made again, at most every RETRY_MAX_MS) the cache is empty and keeps nothing.
 */
import { EventEmitter } from 'node:events'
import type { Sql } from 'postgres'
import { connect } from './connect.js'
import { readChangePayload } from './changes.js'
import type { LookupCache } from './lookup-cache.js'
import { quoteIdent } from './migrations.js'

const RETRY_FIRST_MS = 100
const RETRY_MAX_MS = 5_000

/**
 * Events (for tests and logs): `listening` each time LISTEN is in place, `down` when the
 * connection is lost, `heard` after a notification was applied to the cache.
 */
export class ChangeListener extends EventEmitter {
  private readonly sql: Sql
  private closed = false
  private trying = false
  private retryMs = RETRY_FIRST_MS
  private timer: NodeJS.Timeout | undefined

  constructor(
    url: string,
    schema: string,
    private readonly channel: string,
    private readonly cache: LookupCache,
    opening: Promise<void>,
  ) {
    super()
    this.sql = connect(url, {
      schema,
      max: 1,
      application: 'l9kit listen',
      driver: {
        idle_timeout: 0, // none
        max_lifetime: null,
        onnotify: (_channel: string, payload: string) => this.heard(payload),
        onclose: () => this.lost(),
      },
    })
    opening.then(
      () => this.listen(),
      () => undefined, // the store's own calls report it
    )
  }

  /** Stops listening and closes the connection; the cache is emptied and stays inactive. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    this.cache.down()
    await this.sql.end({ timeout: 1 }).catch(() => undefined)
  }

  private async listen(): Promise<void> {
    if (this.closed || this.trying) return
    this.trying = true
    try {
      await this.sql.unsafe(`LISTEN ${quoteIdent(this.channel)}`)
      this.trying = false
      if (this.closed) return
      this.retryMs = RETRY_FIRST_MS
      this.cache.up()
      this.emit('listening')
    } catch {
      this.trying = false
      this.retry()
    }
  }

  private lost(): void {
    if (this.closed) return
    this.cache.down()
    this.emit('down')
    if (!this.trying) this.retry()
  }

  private retry(): void {
    if (this.closed || this.timer !== undefined) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      void this.listen()
    }, this.retryMs)
    this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2)
  }

  private heard(payload: string): void {
    const changed = readChangePayload(payload)
    if (changed === null) this.cache.clear()
    else this.cache.evict(changed.ips, changed.names)
    this.emit('heard', changed, payload)
  }
}
