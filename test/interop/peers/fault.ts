/**
 * A planted server fault for the peers' tests: a proxy in front of `l9kit serve` whose search
 * drops its last page, to show that the tests judging the real clients would see it.
 */
import { createServer, request as httpRequest, type Server } from 'node:http'

/**
 * A planted server fault: a proxy to `target` whose `/search` answers `[]` for the page that
 * holds the last results (it asks the service for the next page first). Everything else passes.
 */
export async function droppingLastPage(target: string): Promise<{ url: string; close(): void }> {
  const get = (path: string, headers: Record<string, string | string[] | undefined>) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const req = httpRequest(new URL(path, target), { headers: { ...headers, host: new URL(target).host } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end()
    })
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url!, target)
      const answer = await get(req.url!, req.headers)
      if (url.pathname === '/search' && answer.status === 200) {
        const next = new URL(url)
        next.searchParams.set('page', String(Number(url.searchParams.get('page') ?? 0) + 1))
        const after = await get(next.pathname + next.search, req.headers)
        if (after.status === 200 && after.body.toString() === '[]') answer.body = Buffer.from('[]')
      }
      const headers: Record<string, string | string[] | undefined> = { ...answer.headers, 'content-length': String(answer.body.length) }
      delete headers['transfer-encoding']
      res.writeHead(answer.status, headers)
      res.end(answer.body)
    })().catch(() => res.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() }
}


/** A proxy to `target` that passes everything and notes each answer's status (to see a client meet 429s). */
export async function countingProxy(target: string): Promise<{ url: string; statuses: number[]; close(): void }> {
  const statuses: number[] = []
  const server: Server = createServer((req, res) => {
    const up = httpRequest(new URL(req.url!, target), { headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
      statuses.push(answer.statusCode!)
      res.writeHead(answer.statusCode!, answer.headers)
      answer.pipe(res)
    })
    up.on('error', () => res.destroy())
    up.end()
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return { url: `http://127.0.0.1:${port}`, statuses, close: () => server.close() }
}
