/** The hook API client over real HTTP on 127.0.0.1: methods, bodies, keys, schema checks, {title, description} errors, 429 waits. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ClientError, HookApiError, HookClient } from '../../src/client/index.js'

interface Request {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}
type Reply = (res: ServerResponse) => void

const reply = (status: number, body?: unknown, headers: Record<string, string> = {}): Reply => (res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(body === undefined ? undefined : JSON.stringify(body))
}

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

/** A server answering the n-th request with `replies[n]`; returns a client for it and what it saw. */
async function serve(replies: Reply[], apiKey = 'pro-key') {
  const seen: Request[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() })
      replies[Math.min(seen.length - 1, replies.length - 1)]!(res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  const client = new HookClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, apiKey, rate: 'auto' })
  return { client, seen }
}

const HOOK = { id: 'hook_1a', url: 'https://alerts.example.net/', min_severity: 'high', event_types: ['leak'] }

describe('HookClient', () => {
  it('sends each route with its method, JSON body and api-key, and returns the typed answers', async () => {
    const created = { ...HOOK, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' }
    const { client, seen } = await serve([
      reply(201, { id: 'res_9', type: 'domain', value: 'example.com' }),
      reply(201, created),
      reply(200, [HOOK]),
      reply(204),
      reply(200, { queued: 2 }),
    ])
    expect(await client.addResource({ type: 'domain', value: 'Example.COM' })).toEqual({ id: 'res_9', type: 'domain', value: 'example.com' })
    expect(await client.addHook({ url: HOOK.url, min_severity: 'high' })).toEqual(created)
    expect(await client.hooks()).toEqual([HOOK])
    await client.removeHook('hook_1a')
    expect(await client.retryFailed('hook_1a')).toEqual({ queued: 2 })
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/resources',
      'POST /api/hooks',
      'GET /api/hooks',
      'DELETE /api/hooks/hook_1a',
      'POST /api/hooks/hook_1a/retry-failed',
    ])
    expect(JSON.parse(seen[0]!.body)).toEqual({ type: 'domain', value: 'Example.COM' })
    expect(seen[0]!.headers['content-type']).toBe('application/json')
    expect(seen.every((r) => r.headers['api-key'] === 'pro-key')).toBe(true)
  })

  it('throws HookApiError with the service’s title and description on a refusal', async () => {
    const { client } = await serve([reply(403, { title: 'Forbidden', description: 'Hooks are for pro keys only.' })])
    const error = await client.hooks().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HookApiError)
    expect(error).toBeInstanceOf(ClientError)
    expect(error).toMatchObject({ kind: 'http', status: 403, title: 'Forbidden', description: 'Hooks are for pro keys only.' })
    expect((error as Error).message).toBe('GET /api/hooks: 403 Forbidden: Hooks are for pro keys only.')
  })

  it('rejects an answer that does not match the schema, naming the member', async () => {
    const { client } = await serve([reply(200, [{ ...HOOK, min_severity: 'severe' }])])
    const error = (await client.hooks().catch((e: unknown) => e)) as ClientError
    expect(error.kind).toBe('invalid_response')
    expect(error.message).toMatch(/^GET \/api\/hooks: \/0\/min_severity: /)
  })

  it('waits out a 429 on a POST and sends the same body again', async () => {
    const { client, seen } = await serve([reply(429, { title: 'Too Many Requests', description: 'wait' }, { 'x-limited-for': '20ms' }), reply(201, { ...HOOK, secret: 'whsec_x' })])
    await client.addHook({ url: HOOK.url })
    expect(seen.map((r) => r.body)).toEqual([JSON.stringify({ url: HOOK.url }), JSON.stringify({ url: HOOK.url })])
  })

  it('ingests JSON Lines with the admin token as a Bearer header and no api-key', async () => {
    const { client, seen } = await serve([reply(200, { accepted: 1, duplicates: 0, rejected: [] })])
    expect(await client.ingest('admin-token', '{"event_type":"leak"}\n')).toEqual({ accepted: 1, duplicates: 0, rejected: [] })
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/admin/events', body: '{"event_type":"leak"}\n' })
    expect(seen[0]!.headers.authorization).toBe('Bearer admin-token')
    expect(seen[0]!.headers['api-key']).toBeUndefined()
  })
})
