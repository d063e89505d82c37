/** A raw GET on 127.0.0.1 for the web tests: status, headers and the body bytes as sent (not decompressed). */
import { request as httpRequest } from 'node:http'

export interface RawAnswer {
  status: number
  statusMessage: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** The `accept` header Chromium sends for a page. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

export function getRaw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(base)
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers, agent: false, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error(`GET ${path} timed out`)))
    req.on('error', reject)
    req.end()
  })
}
