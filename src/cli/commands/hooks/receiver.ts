/**
 * The receiver behind `l9kit hooks listen`: an HTTP server that takes hook deliveries, checks
 * the Standard Webhooks signature when it has a secret, and reports each delivery. Answers:
 * 204 accepted, 401 bad signature, 400 not a JSON body, 405 not a POST, 413 too large.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { verify, type Verdict } from '../../../webhooks/signature.js'

/** Largest body taken (deliveries are single events: far smaller). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024

/** One request as it arrived and what the receiver made of it. */
export interface Received {
  /** `webhook-id`, when sent. */
  id: string | undefined
  /** `webhook-timestamp` (Unix seconds), when sent. */
  timestamp: string | undefined
  /** The raw body. */
  body: Buffer
  /** The body parsed as JSON; undefined when it is not JSON. */
  json: unknown
  /** Signature verdict; undefined when the receiver has no secret. */
  signature: Verdict | undefined
  /** The status answered. */
  status: number
  /** Why the delivery was refused, for 4xx answers. */
  refusal?: string
}

export interface ReceiverOptions {
  host: string
  port: number
  secret?: string
  /** Called for every request once it is answered. */
  onDelivery(received: Received): void
}

export interface Receiver {
  url: string
  close(): Promise<void>
}

/** Starts listening; rejects with the listen error (port in use, no such address). */
export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const server: Server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        const received = judge(req, body, options.secret)
        res.writeHead(received.status, received.refusal ? { 'content-type': 'text/plain; charset=utf-8' } : {})
        res.end(received.refusal ? `${received.refusal}\n` : undefined)
        options.onDelivery(received)
      },
      () => {
        const received: Received = { id: header(req, 'webhook-id'), timestamp: header(req, 'webhook-timestamp'), body: Buffer.alloc(0), json: undefined, signature: undefined, status: 413, refusal: `body larger than ${MAX_BODY_BYTES} bytes` }
        res.writeHead(413, { connection: 'close' }).end()
        options.onDelivery(received)
      },
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function judge(req: IncomingMessage, body: Buffer, secret: string | undefined): Received {
  const id = header(req, 'webhook-id')
  const timestamp = header(req, 'webhook-timestamp')
  const base = { id, timestamp, body, json: parseJson(body), signature: undefined as Verdict | undefined }
  if (req.method !== 'POST') return { ...base, status: 405, refusal: `method ${req.method ?? '?'} (deliveries are POSTs)` }
  if (secret !== undefined) {
    const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': header(req, 'webhook-signature') }
    base.signature = verify(secret, headers, body)
    if (!base.signature.ok) return { ...base, status: 401, refusal: `bad signature: ${base.signature.message}` }
  }
  if (base.json === undefined) return { ...base, status: 400, refusal: 'the body is not JSON' }
  return { ...base, status: 204 }
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name]
  return Array.isArray(value) ? value.join(', ') : value
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
}

/** The whole body, or a rejection once it passes MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners('data')
        req.resume()
        reject(new Error('too large'))
        return
      }
      chunks.push(chunk)
    })
    req.on('end', () => resolve(Buffer.concat(chunks, size)))
    req.on('error', reject)
  })
}
