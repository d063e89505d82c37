/** Connection pools for the PostgreSQL store (the `postgres` driver), with l9kit's defaults. */
import { connect as netConnect, type Socket } from 'node:net'
import postgres, { type Sql } from 'postgres'
import { quoteIdent } from './migrations.js'

import { shownUrl, storeUrlProblem } from './url.js'

export { isPostgresUrl, shownUrl, storeUrlProblem } from './url.js'

export interface ConnectOptions {
  /** Schema holding l9kit's tables (default `public`); it is put first on the search path. */
  schema?: string
  /** Connections in the pool (default 10). */
  max?: number
  /** The timeout of every statement on the pool's connections, in ms (default none). */
  statementTimeoutMs?: number
  /** The connections' application_name (default `l9kit`): pg_stat_activity shows it. */
  application?: string
  /**
   * Driver options set over these defaults (the change listener's: no idle timeout, its own
   * close and notification handlers, which the driver has but its types leave out).
   */
  driver?: Record<string, unknown>
}

/**
 * Opens a pool (connections are made on first use); a URL that names no database is refused. Notices are silenced, numeric columns
 * stay strings (times are nanosecond counts that do not fit a double), and every connection
 * searches `schema` first, so the SQL names its tables without a schema.
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  const problem = storeUrlProblem(url)
  if (problem !== null) throw new Error(`the store URL ${shownUrl(url)} ${problem}`)
  const schema = options.schema ?? 'public'
  const socket = { socket: openSocket } as object // an option the driver has but its types leave out
  return postgres(url, {
    ...socket,
    max: options.max ?? 10,
    onnotice: () => {},
    idle_timeout: 30,
    connect_timeout: 10,
    connection: {
      search_path: schema === 'public' ? 'public' : `${quoteIdent(schema)}, public`,
      application_name: options.application ?? 'l9kit',
      ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: Math.max(1, Math.floor(options.statementTimeoutMs)) }),
    },
    ...options.driver,
  })
}

const CONNECT_TIMEOUT_MS = 10_000

/**
 * A connected socket with Nagle's algorithm off. The driver writes a COPY's last data and its
 * CopyDone as separate small packets; with Nagle on, the second waits for the server's delayed
 * ACK, and every COPY took 40 ms more (measured: a two-row batch 100 ms, 12 ms without).
 * Only the first host of a multi-host URL is used.
 */
function openSocket(options: { host?: string[]; port?: number[]; path?: string }): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = options.path
      ? netConnect(options.path)
      : netConnect({ host: options.host?.[0] ?? '127.0.0.1', port: options.port?.[0] ?? 5432, noDelay: true })
    const timer = setTimeout(() => socket.destroy(new Error(`could not connect within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS)
    socket.once('connect', () => {
      clearTimeout(timer)
      socket.off('error', reject)
      resolve(socket)
    })
    socket.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}

