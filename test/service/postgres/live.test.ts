/**
 * The live stream on the PostgreSQL store: a subscriber of one service hears the events ingested
 * through another service on the same database (LISTEN/NOTIFY with ids), and only new ones.
 */
import { afterAll, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { startService } from '../../../src/service/index.js'
import { PostgresStore } from '../../../src/service/store/postgres/index.js'
import { jsonl, KEYS, makeEvent, request, unlimitedConfig } from '../support.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

vi.setConfig({ testTimeout: 180_000 })
const schema = freshSchema()
dropSchemasAfterAll([schema])
const closing: (() => Promise<unknown>)[] = []
afterAll(async () => {
  for (const close of closing.reverse()) await close()
})

describePostgres('live stream on PostgreSQL', () => {
  it('delivers events another process ingested', async () => {
    const services = []
    for (let i = 0; i < 2; i++) {
      const store = await PostgresStore.open(DATABASE_URL, { schema, max: 3 })
      const running = await startService({ store, config: unlimitedConfig(), host: '127.0.0.1', port: 0 })
      closing.push(() => store.close(), () => running.close(100))
      services.push(running)
    }
    const [a, b] = services
    const ws = new WebSocket(a!.url.replace('http', 'ws') + '/ws/leak', { headers: { 'api-key': KEYS.pro } })
    const got: string[] = []
    ws.on('message', (data) => got.push(JSON.parse(data.toString()).summary))
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    const leak = (n: number) => makeEvent({ event_type: 'leak', ip: `192.0.2.${n}`, summary: `leak ${n}`, leak: { ...makeEvent({}).leak, severity: 'low' } })
    const post = (url: string, docs: unknown[]) => request(url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })
    const first = leak(1)
    await post(b!.url, [first, makeEvent({ ip: '192.0.2.9' }), leak(2)])
    await post(b!.url, [first])
    await post(a!.url, [leak(3)])
    while (got.length < 3) await new Promise((r) => setTimeout(r, 20)) // (bounded by the test's timeout)
    await new Promise((r) => setTimeout(r, 100))
    expect(got).toEqual(['leak 1', 'leak 2', 'leak 3'])
    ws.close()
  })
})
