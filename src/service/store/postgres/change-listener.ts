/**
 * The one LISTEN connection of a process whose PostgreSQL store keeps lookup answers: it hears
 * every write's changes (changes.ts) and evicts them from the cache (lookup-cache.ts). Its own
 * connection, not the driver's shared listener (which the live stream uses): the cache must
 * know the moment that connection is lost, to stop serving what it keeps, and the driver's
 * listener re-listens silently. While it is not listening (not yet, or the connection went and
 * is being made again, at most every RETRY_MAX_MS) the cache is empty and keeps nothing.
 *
 * A connection can also die without closing (a host or a firewall between drops it: TCP
 * keepalive would notice after minutes). So while listening it sends itself a heartbeat through
 * the store's pool every `heartbeatMs`; one not heard back within `heartbeatTimeoutMs` counts as
 * a lost connection, and a new one is made.
 *
 * The cache starts serving only when the first heartbeat, sent right after LISTEN, is heard: the
 * proof that what the pool's connections notify reaches this one. Behind a transaction-mode
 * pooler (PgBouncer's `pool_mode = transaction`) LISTEN lands on a server connection the pooler
 * lends to others, nothing comes back, and the cache never serves: lookups query as without it.
 */
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import type { Sql } from 'postgres'
import { connect } from './connect.js'
import { readChangePayload } from './changes.js'
import type { LookupCache } from './lookup-cache.js'
import { quoteIdent } from './migrations.js'

const RETRY_FIRST_MS = 100
const RETRY_MAX_MS = 5_000

/** How often a heartbeat is sent, and how long it may take to come back (generous: a busy thread reads it). */
export const HEARTBEAT = { everyMs: 5_000, timeoutMs: 15_000 }

/**
 * Events (for tests and logs): `listening` each time LISTEN is in place and its first heartbeat
 * came back (the cache serves from then on), `down` when the connection is lost or replaced
 * (closed, or silent past a heartbeat), `heard` after a notification was
 * applied to the cache (with what changed and the payload).
 */
export class ChangeListener extends EventEmitter {
  private sql: Sql
  private closed = false
  private trying = false
  private retryMs = RETRY_FIRST_MS
  private timer: NodeJS.Timeout | undefined
  private readonly beat: NodeJS.Timeout
  /** The heartbeat sent and not heard back yet, and when it was sent. */
  private awaiting: { token: string; at: number } | null = null
  /** Test hook: notifications are not read while true (a connection that went silent). */
  deaf = false

  constructor(
    private readonly url: string,
    private readonly schema: string,
    private readonly channel: string,
    private readonly cache: LookupCache,
    opening: Promise<void>,
    private readonly pool: Sql,
    heartbeat: { everyMs: number; timeoutMs: number } = HEARTBEAT,
  ) {
    super()
    this.sql = this.client()
    opening.then(
      () => this.listen(),
      () => undefined, // the store's own calls report it
    )
    this.beat = setInterval(() => this.heartbeat(heartbeat.timeoutMs), heartbeat.everyMs)
    this.beat.unref()
  }

  /** Stops listening and closes the connection; the cache is emptied and stays inactive. */
  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.timer)
    clearInterval(this.beat)
    this.cache.down()
    await this.sql.end({ timeout: 1 }).catch(() => undefined)
  }

  /** A connection of its own (one, never idle-closed) whose close means the cache stops. */
  private client(): Sql {
    const sql: Sql = connect(this.url, {
      schema: this.schema,
      max: 1,
      application: 'l9kit listen',
      driver: {
        idle_timeout: 0, // none
        max_lifetime: null,
        onnotify: (_channel: string, payload: string) => this.heard(payload),
        onclose: () => {
          if (sql === this.sql) this.lost()
        },
      },
    })
    return sql
  }

  private async listen(): Promise<void> {
    if (this.closed || this.trying) return
    this.trying = true
    const sql = this.sql
    try {
      await sql.unsafe(`LISTEN ${quoteIdent(this.channel)}`)
      this.trying = false
      if (this.closed || sql !== this.sql) return
      this.awaiting = null
      this.send() // the cache goes up when this comes back (heard)
    } catch {
      this.trying = false
      this.retry()
    }
  }

  private lost(): void {
    if (this.closed) return
    this.awaiting = null
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

  /**
   * Sends a heartbeat while listening; a silent connection (or one the pool cannot reach) is
   * replaced, and so is a new one whose first heartbeat does not come back.
   */
  private heartbeat(timeoutMs: number): void {
    if (this.closed || this.trying) return
    if (this.awaiting !== null) {
      if (Date.now() - this.awaiting.at > timeoutMs) this.replace()
      return
    }
    if (this.cache.active) this.send()
  }

  private send(): void {
    const token = randomBytes(8).toString('hex')
    this.awaiting = { token, at: Date.now() }
    this.pool`SELECT pg_notify(${this.channel}, ${JSON.stringify({ i: [], n: [], beat: token })})`.catch(() => this.replace())
  }

  /** Drops the connection (as lost) and makes another. */
  private replace(): void {
    if (this.closed) return
    const old = this.sql
    this.sql = this.client()
    this.trying = false
    this.lost()
    void old.end({ timeout: 0 }).catch(() => undefined)
  }

  private heard(payload: string): void {
    if (this.deaf) return
    const changed = readChangePayload(payload)
    if (changed === null) this.cache.clear()
    else if (changed.ips.size + changed.names.size > 0) this.cache.evict(changed.ips, changed.names)
    else if (this.awaiting !== null && payload.includes(this.awaiting.token)) {
      this.awaiting = null
      if (!this.cache.active) {
        this.retryMs = RETRY_FIRST_MS
        this.cache.up()
        this.emit('listening')
      }
    }
    this.emit('heard', changed, payload)
  }
}
