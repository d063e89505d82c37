/**
 * `l9kit serve --store postgres://…` as real processes (the built binary, dist/cli/main.js, as
 * `npm test` builds it first), and a hook receiver on 127.0.0.1 that records what arrives per path.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, expect } from 'vitest'
import { packageRoot } from '../../../src/service/index.js'
import { BUILT_CLI } from '../../support/built-cli.js'

export interface ServeProcess {
  url: string
  child: ChildProcess
  output: () => string
  /** SIGTERM, and wait for the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL (no chance to clean up), and wait until it is gone. */
  crash(): Promise<void>
}

const running = new Set<ChildProcess>()
afterAll(() => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * Starts `l9kit serve --port 0 ARGS…` (the built binary: tsx would compile the sources first,
 * long on a busy machine) and resolves once it listens (bounded: 180 s).
 */
export async function startServe(args: string[]): Promise<ServeProcess> {
  const root = packageRoot()
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, L9KIT_DATABASE_URL: '' },
  })
  running.add(child)
  let text = ''
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()))
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child)
      resolve(code)
    }),
  )
  const deadline = Date.now() + 180_000
  let url: string | undefined
  while (url === undefined && Date.now() < deadline && child.exitCode === null) {
    url = /^listening on (http:\/\/\S+)/m.exec(text)?.[1]
    if (url === undefined) await new Promise((r) => setTimeout(r, 25))
  }
  expect(url, `serve did not start:\n${text}`).toBeDefined()
  return {
    url: url!,
    child,
    output: () => text,
    stop: async () => {
      child.kill('SIGTERM')
      return exited
    },
    crash: async () => {
      child.kill('SIGKILL')
      await exited
    },
  }
}

export interface Received {
  path: string
  body: string
  /** Deliveries of the same path in flight when this one arrived (0 = none). */
  concurrent: number
}

export interface Receiver {
  port: number
  received: Received[]
  close(): Promise<void>
}

/** A hook receiver answering 204 after `delayMs`; on `port` when given (it must be free). */
export async function startReceiver(options: { port?: number; delayMs?: number } = {}): Promise<Receiver> {
  const received: Received[] = []
  const inFlight = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const path = req.url ?? ''
      const concurrent = inFlight.get(path) ?? 0
      inFlight.set(path, concurrent + 1)
      received.push({ path, body: Buffer.concat(chunks).toString('utf8'), concurrent })
      setTimeout(() => {
        inFlight.set(path, (inFlight.get(path) ?? 1) - 1)
        res.writeHead(204).end()
      }, options.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const receiver: Receiver = {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  afterAll(() => receiver.close())
  return receiver
}

/** A port nothing listens on right now (taken from the system, then released). */
export async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Polls `ready` every 50 ms until it is true (bounded by `ms`). */
export async function waitFor(ready: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await ready()) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return ready()
}

/** The first occurrence of each item, in order (deliveries may repeat: at least once). */
export const firstOccurrences = (items: string[]): string[] => [...new Set(items)]
