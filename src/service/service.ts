/** Starting and stopping the service: a store, a configuration, a listening node:http server. */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServiceConfig } from './config.js'
import { createContext, type ServiceContext } from './http/context.js'
import { createServiceServer } from './http/server.js'
import type { LimiterOptions } from './ratelimit/index.js'
import type { Store } from './store/index.js'

export interface StartOptions {
  store: Store
  config: ServiceConfig
  /** Default 127.0.0.1 (loopback only). */
  host?: string
  /** Default 8080; 0 picks a free port. */
  port?: number
  /** Rate limiter clock and grace, for tests. */
  limiter?: LimiterOptions
}

export interface RunningService {
  /** `http://HOST:PORT` (IPv6 hosts in brackets). */
  url: string
  host: string
  port: number
  server: Server
  context: ServiceContext
  /** Stops accepting, lets requests in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>
}

/** Listens and resolves once the service accepts connections. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const context = createContext(options.store, options.config, options.limiter)
  const server = createServiceServer(context)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    server,
    context,
    close: (graceMs = 3_000) => closeServer(server, graceMs),
  }
}

function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs)
    timer.unref()
    server.close(() => {
      clearTimeout(timer)
      resolve()
    })
    server.closeIdleConnections()
  })
}
