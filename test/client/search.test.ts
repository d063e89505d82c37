/** The client's search() and searchAll() against the reference service and a scripted server on 127.0.0.1. */
import { describe, expect, it } from 'vitest'
import { ClientError, LookupClient, searchPath } from '../../src/client/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { KEYS, makeEvent, serveForTest, unlimitedConfig } from '../service/support.js'
import { scripted } from './scripted-server.js'

describe('client: search', async () => {
  const store = new MemoryStore()
  const events = Array.from({ length: 7 }, (_, i) => makeEvent({ ip: `192.0.2.${i + 1}`, port: i % 2 ? '22' : '443', time: `2026-11-2${i}T00:00:00Z` }))
  store.ingest(events)
  // Three events a page, and a rate of 20 a second with no burst: paging hits 429s to wait out.
  const service = await serveForTest({ store, config: unlimitedConfig({ search_page_size: 3, plans: { pro: { rate: 20, burst: 1 } } }) })
  const client = new LookupClient({ baseUrl: service.url, apiKey: KEYS.pro, rate: 'auto' })

  it('search() gives one typed page, newest first, and [] past the last', async () => {
    const page = await client.search('+port:443', { scope: 'service' })
    expect(page.map((e) => e.ip)).toEqual(['192.0.2.7', '192.0.2.5', '192.0.2.3'])
    expect((await client.search('+port:443', { scope: 'service', page: 1 })).map((e) => e.ip)).toEqual(['192.0.2.1'])
    expect(await client.search('+port:443', { scope: 'service', page: 2 })).toEqual([])
    expect(await client.search('*', { scope: 'leak' })).toEqual([])
  })

  it('searchAll() reads every page until an empty one, waiting out the 429s on the way', async () => {
    const waits: number[] = []
    const paced = new LookupClient({ baseUrl: service.url, apiKey: KEYS.pro, rate: 'auto', onWait: (ms) => waits.push(ms) })
    const ips: string[] = []
    for await (const event of paced.searchAll('*', { scope: 'service' })) ips.push(event.ip)
    expect(ips).toEqual(events.map((e) => e.ip).reverse())
    expect(waits.length).toBeGreaterThan(0)
    const some: string[] = []
    for await (const event of paced.searchAll('*', { scope: 'service', fromPage: 1, maxPages: 1 })) some.push(event.ip)
    expect(some).toEqual(['192.0.2.4', '192.0.2.3', '192.0.2.2'])
  })

  it('throws a refused query as a ClientError with the position and the term', async () => {
    const error = await client.search('+countri:FR', { scope: 'service' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClientError)
    expect(error).toMatchObject({ kind: 'http', status: 400 })
    expect((error as Error).message).toContain('bad query at position 2 (`countri`)')
    await expect(client.search('*', { scope: 'service', page: -1 })).rejects.toThrow(RangeError)
  })
})

describe('client: search answers of other servers', () => {
  it('sends scope, q and page escaped, reads 204 and an empty 200 body as no events, refuses a body that is not an array', async () => {
    const server = await scripted([
      (res) => res.writeHead(204).end(),
      (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(''),
      (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"Services":[]}'),
    ])
    try {
      const client = new LookupClient({ baseUrl: server.url, rate: 'auto', apiKey: 'k-123456' })
      expect(await client.search('+port:443 -country:Germany', { scope: 'service', page: 2 })).toEqual([])
      expect(await client.search('*', { scope: 'leak' })).toEqual([])
      await expect(client.search('*', { scope: 'leak' })).rejects.toMatchObject({ kind: 'invalid_response' })
      expect(server.seen[0]!.url).toBe('/search?scope=service&q=%2Bport%3A443%20-country%3AGermany&page=2')
      expect(server.seen[0]!.url).toBe(searchPath('+port:443 -country:Germany', 'service', 2))
      expect(server.seen[0]!.headers).toMatchObject({ accept: 'application/json', 'api-key': 'k-123456' })
    } finally {
      await server.close()
    }
  })
})
