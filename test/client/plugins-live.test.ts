/** The client's plugins(), plugin() and live() against the reference service on 127.0.0.1. */
import { describe, expect, it } from 'vitest'
import { ClientError, LookupClient } from '../../src/client/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, serveForTest, unlimitedConfig } from '../service/support.js'

describe('client: plugins and the live stream', async () => {
  const store = new MemoryStore()
  store.ingest([makeEvent({ event_source: 'DotEnvConfigPlugin', ip: '192.0.2.5' })])
  const service = await serveForTest({ store, config: unlimitedConfig() })
  const client = new LookupClient({ baseUrl: service.url, apiKey: KEYS.pro, rate: 'auto' })

  it('plugins() gives the typed list, plugin() one, and null for an unknown name', async () => {
    expect(await client.plugins()).toEqual([{ name: 'DotEnvConfigPlugin', description: 'Events reported by the DotEnvConfigPlugin plugin.', event_count1h: 0, event_count24h: 0, event_count7d: 0 }])
    expect(await client.plugin('DotEnvConfigPlugin')).toEqual({ name: 'DotEnvConfigPlugin', description: 'Events reported by the DotEnvConfigPlugin plugin.' })
    expect(await client.plugin('NoSuchPlugin')).toBeNull()
  })

  it('plugin() throws a ClientError for a 404 that is not "Plugin not found" (a server without the route)', async () => {
    const bare = new LookupClient({ baseUrl: `${service.url}/nothing-here`, rate: 'auto' })
    await expect(bare.plugin('x')).rejects.toMatchObject({ kind: 'http', status: 404 })
  })

  it('live() yields each new event of the scope, typed, and ends when the signal aborts', async () => {
    const stop = new AbortController()
    const got: string[] = []
    const reading = (async () => {
      for await (const event of client.live('leak', { signal: stop.signal })) {
        got.push(event.summary)
        if (got.length === 2) stop.abort()
      }
    })()
    // Once the service counts the subscriber, it gets every event stored after (bounded by the test's timeout).
    while (service.context.live.size === 0) await new Promise((r) => setTimeout(r, 10))
    const leak = (s: string) => makeEvent({ event_type: 'leak', ip: '192.0.2.6', summary: s, leak: { ...makeEvent({}).leak, severity: 'low' } })
    await request(service.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl([leak('one'), makeEvent({ ip: '192.0.2.7' }), leak('two')]) })
    await reading
    expect(got).toEqual(['one', 'two'])
  })

  it('live() throws the refusal as a ClientError with the answer', async () => {
    const registered = new LookupClient({ baseUrl: service.url, apiKey: KEYS.registered })
    const error = await (async () => {
      for await (const _ of registered.live('service')) return undefined
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ClientError)
    expect(error).toMatchObject({ kind: 'http', status: 403 })
    expect((error as ClientError).details.response?.body).toMatch(/live stream is for pro keys/)
  })
})
