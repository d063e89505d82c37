/**
 * Two `l9kit serve` processes on one database: an event ingested through one is visible
 * through the other at once; both dispatch, yet a hook never has two deliveries in flight
 * and its alerts arrive in ingest order. Also `--workers 2`: one port, two processes.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { jsonl, makeEvent, request } from '../support.js'
import { fileTempDir } from '../../support/temp.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'
import { firstOccurrences, startReceiver, startServe, waitFor } from './processes.js'

vi.setConfig({ testTimeout: 540_000 })

const ADMIN = 'admin-token-two-001'
const SECRET = 'whsec_' + Buffer.alloc(32, 5).toString('base64')
const schemas = [freshSchema(), freshSchema()]
dropSchemasAfterAll(schemas)
const dir = fileTempDir('l9kit-pg-two-')

function config(receiverPort: number): string {
  const file = join(dir, 'config.json')
  const hook = (path: string, types: string[]) => ({ url: `http://127.0.0.1:${receiverPort}${path}`, secret: SECRET, min_severity: 'info', event_types: types })
  writeFileSync(
    file,
    JSON.stringify({
      keys: [
        {
          name: 'alice',
          key: 'pro-key-two-00001',
          plan: 'pro',
          resources: [{ type: 'domain', value: 'example.com' }],
          hooks: [hook('/a', ['service', 'leak']), hook('/b', ['leak']), hook('/c', ['service'])],
        },
      ],
      admin_token: ADMIN,
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      allow_private_hooks: true,
      hook_delivery: { timeout_ms: 2_000, attempts: 1_000, backoff_ms: 10, backoff_max_ms: 100 },
    }),
  )
  return file
}

const event = (n: number) =>
  makeEvent({ event_type: n % 2 ? 'leak' : 'service', host: `h${n}.example.com`, ip: '192.0.2.9', port: String(n), summary: `n${n}` })

const ingest = (url: string, from: number, count: number) =>
  request(url, '/admin/events', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}` },
    body: jsonl(Array.from({ length: count }, (_, i) => event(from + i))),
  })

describePostgres('PostgreSQL store: several processes', () => {
  it('shares data at once, and delivers each hook one at a time, in order, from both', async () => {
    const receiver = await startReceiver({ delayMs: 15 })
    const args = ['--store', DATABASE_URL, '--schema', schemas[0]!, '--config', config(receiver.port)]
    const [a, b] = await Promise.all([startServe(args), startServe(args)])

    expect((await ingest(a.url, 0, 1)).json).toMatchObject({ accepted: 1 })
    expect((await request(b.url, '/domain/h0.example.com')).text).toContain('"summary":"n0"')

    const total = 120
    for (let from = 1; from < total; from += 17) expect((await ingest(from % 2 ? b.url : a.url, from, Math.min(17, total - from))).status).toBe(200)

    const arrived = (path: string) => receiver.received.filter((r) => r.path === path)
    const summaries = (path: string) => arrived(path).map((r) => (JSON.parse(r.body) as { summary: string }).summary)
    const owed = (keep: (n: number) => boolean) => Array.from({ length: total }, (_, n) => n).filter(keep).map((n) => `n${n}`)
    const expected = { '/a': owed(() => true), '/b': owed((n) => n % 2 === 1), '/c': owed((n) => n % 2 === 0) }
    await waitFor(() => Object.entries(expected).every(([path, list]) => firstOccurrences(summaries(path)).length >= list.length), 90_000)
    for (const [path, list] of Object.entries(expected)) {
      expect(firstOccurrences(summaries(path)), path).toEqual(list)
      expect(Math.max(...arrived(path).map((r) => r.concurrent)), `${path}: deliveries in flight at once`).toBe(0)
    }
    expect(await a.stop()).toBe(0)
    expect(await b.stop()).toBe(0)
  })

  it('--workers 2 serves one port from two processes over the shared store', async () => {
    const config = join(dir, 'plain.json')
    writeFileSync(config, JSON.stringify({ admin_token: ADMIN, plans: { anonymous: { rate: null } } }))
    const served = await startServe(['--store', DATABASE_URL, '--schema', schemas[1]!, '--config', config, '--workers', '2'])
    expect(served.output()).toMatch(/\(2 workers\)/)
    expect((await ingest(served.url, 0, 10)).json).toMatchObject({ accepted: 10 })
    // Fresh connections are spread over the workers; each sees what the other stored.
    for (let i = 0; i < 10; i++) expect((await request(served.url, `/domain/h${i}.example.com`)).text).toContain(`"summary":"n${i}"`)
    expect(await served.stop()).toBe(0)
  })
})
