/** A node:http server on 127.0.0.1 that answers from a script, and records what it was asked. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  url: string
  headers: IncomingHttpHeaders
  /** performance.now() when the request arrived. */
  at: number
}

export type Answer = (res: ServerResponse, seen: Seen, index: number) => void

export interface Scripted {
  url: string
  seen: Seen[]
  close(): Promise<void>
}

/** Answers the n-th request with `answers[n]` (the last one repeats). */
export async function scripted(answers: Answer[]): Promise<Scripted> {
  const seen: Seen[] = []
  const server = createServer((req, res) => {
    const entry = { url: req.url ?? '', headers: req.headers, at: performance.now() }
    seen.push(entry)
    const index = seen.length - 1
    answers[Math.min(index, answers.length - 1)]!(res, entry, index)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}, reason?: string): Answer =>
  (res) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body)
    res.writeHead(status, reason ?? '', { 'content-type': 'application/json', ...headers })
    res.end(text)
  }

export const limited = (header: string | undefined): Answer =>
  json(429, { title: 'Too Many Requests', description: 'slow down' }, header === undefined ? {} : { 'x-limited-for': header }, 'Rate-limited')

/** Never answers (for timeouts). */
export const silent: Answer = () => {}
