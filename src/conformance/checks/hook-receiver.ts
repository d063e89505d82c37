/** The suite's hook receiver: listens on 127.0.0.1, answers 204 to everything, and records each request by path. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as it arrived. */
export interface Arrival {
  /** The path it was sent to (one per hook). */
  path: string
  method: string
  /** Lower-case names; only the ones the checks judge. */
  headers: { 'content-type'?: string; 'webhook-id'?: string; 'webhook-timestamp'?: string; 'webhook-signature'?: string }
  /** The raw body, as bytes (signatures are over bytes) and as text. */
  bytes: Buffer
  body: string
  /** The receiver's clock at arrival, Unix seconds. */
  arrivedS: number
}

const JUDGED = ['content-type', 'webhook-id', 'webhook-timestamp', 'webhook-signature'] as const
const MAX_BODY_BYTES = 16 * 1024 * 1024

export interface HookReceiver {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  base: string
  arrivals: Arrival[]
  /** Resolves when `done()` holds after an arrival, or after `ms`; true when it held. */
  until(done: () => boolean, ms: number, signal?: AbortSignal): Promise<boolean>
  close(): Promise<void>
}

/** Listens on a free port of 127.0.0.1; `onArrival` hears each request as it is recorded (the HAR cassette). */
export async function startHookReceiver(onArrival?: (arrival: Arrival) => void): Promise<HookReceiver> {
  const arrivals: Arrival[] = []
  const listeners = new Set<() => void>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size <= MAX_BODY_BYTES) chunks.push(c)
    })
    req.on('end', () => {
      const headers: Arrival['headers'] = {}
      for (const name of JUDGED) {
        const value = req.headers[name]
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
      }
      const bytes = Buffer.concat(chunks)
      const arrival: Arrival = { path: (req.url ?? '/').split('?')[0]!, method: req.method ?? '', headers, bytes, body: bytes.toString('utf8'), arrivedS: Date.now() / 1000 }
      arrivals.push(arrival)
      onArrival?.(arrival)
      res.writeHead(204).end()
      for (const l of listeners) l()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    until(done, ms, signal) {
      return new Promise((resolve) => {
        const finish = (held: boolean) => {
          clearTimeout(timer)
          listeners.delete(check)
          signal?.removeEventListener('abort', abort)
          resolve(held)
        }
        const check = () => {
          if (done()) finish(true)
        }
        const abort = () => finish(false)
        const timer = setTimeout(() => finish(done()), ms)
        listeners.add(check)
        signal?.addEventListener('abort', abort, { once: true })
        check()
      })
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
