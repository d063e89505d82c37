/** Starting and stopping the service: a store, a configuration, a listening node:http server. */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { ServiceConfig } from './config.js'
import { createContext, type ServiceContext } from './http/context.js'
import { createServiceServer } from './http/server.js'
import { Dispatcher, type HookStore, MemoryHookStore, queueIngested, type Resolver } from './hooks/index.js'
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
  /**
   * The hook registry and delivery queue. Default: a MemoryHookStore that `store`'s ingest
   * feeds (another backend queues new events itself).
   */
  hooks?: HookStore
  /** How host names of hook URLs are resolved (tests); default dns.lookup. */
  resolve?: Resolver
}

export interface RunningService {
  /** `http://HOST:PORT` (IPv6 hosts in brackets). */
  url: string
  host: string
  port: number
  server: Server
  context: ServiceContext
  /**
   * Stops accepting, lets requests and hook deliveries in flight finish (at most `graceMs`),
   * then closes; reports the hook deliveries still pending.
   */
  close(graceMs?: number): Promise<{ pendingDeliveries: number }>
}

/** Listens and resolves once the service accepts connections. */
export async function startService(options: StartOptions): Promise<RunningService> {
  const context = createContext(options.store, options.config, options.limiter)
  const hooks = await startHooks(options)
  context.hooks = { store: hooks.store, dispatcher: hooks.dispatcher, resolve: options.resolve }
  const server = createServiceServer(context)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 8080, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  }).catch(async (error: unknown) => {
    await hooks.dispatcher.close(0)
    hooks.detach()
    throw error
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}`,
    host: address.address,
    port: address.port,
    server,
    context,
    close: async (graceMs = 3_000) => {
      // Stream subscribers are told first (the fan-out process has their connections, and the server waits for them).
      await Promise.all([context.live.close(), closeServer(server, graceMs), hooks.dispatcher.close(graceMs)])
      hooks.detach()
      // Counted once requests in flight have finished: their ingests may have queued more.
      return { pendingDeliveries: await hooks.store.pendingCount() }
    },
  }
}

/** The hook store (with the resources and hooks the configuration declares) and its running dispatcher. */
async function startHooks(options: StartOptions): Promise<{ store: HookStore; dispatcher: Dispatcher; detach: () => void }> {
  const config = options.config
  const store = options.hooks ?? new MemoryHookStore({ queueLimit: config.hookDelivery.queueLimit })
  const detach = store instanceof MemoryHookStore ? queueIngested(options.store, store) : () => undefined
  await store.declare(config.declared)
  const dispatcher = new Dispatcher(store, { settings: config.hookDelivery, allowPrivate: config.allowPrivateHooks, resolve: options.resolve })
  dispatcher.start()
  return { store, dispatcher, detach }
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
