/**
 * Crash: with the receiver down, matching events are ingested and the server is killed with
 * SIGKILL (one ingest still in flight); the receiver comes up and the server starts again:
 * every alert of every stored event arrives, in ingest order per hook (repeats allowed).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it, vi } from 'vitest'
import { jsonl, makeEvent, request } from '../support.js'
import { fileTempDir } from '../../support/temp.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'
import { firstOccurrences, startReceiver, startServe, unusedPort, waitFor } from './processes.js'

vi.setConfig({ testTimeout: 540_000 })

const ADMIN = 'admin-token-crash-1'
const SECRET = 'whsec_' + Buffer.alloc(32, 3).toString('base64')
const schema = freshSchema()
dropSchemasAfterAll([schema])
const dir = fileTempDir('l9kit-pg-crash-')

/** Two hooks of one pro key: services and leaks of example.com go to /a, leaks of 192.0.2.0/24 to /b. */
function config(receiverPort: number): string {
  const file = join(dir, 'config.json')
  const hook = (path: string, types: string[]) => ({ url: `http://127.0.0.1:${receiverPort}${path}`, secret: SECRET, min_severity: 'info', event_types: types })
  writeFileSync(
    file,
    JSON.stringify({
      keys: [
        {
          name: 'alice',
          key: 'pro-key-crash-001',
          plan: 'pro',
          resources: [
            { type: 'domain', value: 'example.com' },
            { type: 'network', value: '192.0.2.0/24' },
          ],
          hooks: [hook('/a', ['service', 'leak']), hook('/b', ['leak'])],
        },
      ],
      admin_token: ADMIN,
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      allow_private_hooks: true,
      hook_delivery: { timeout_ms: 2_000, attempts: 1_000, backoff_ms: 10, backoff_max_ms: 200 },
    }),
  )
  return file
}

const event = (n: number) =>
  makeEvent({
    event_type: n % 3 === 0 ? 'leak' : 'service',
    host: `h${n}.example.com`,
    ip: `192.0.2.${n % 250}`,
    port: String(1000 + n),
    summary: `n${n}`,
    leak: { ...makeEvent({}).leak, severity: 'high' },
  })

const ingest = (url: string, from: number, count: number) =>
  request(url, '/admin/events', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}` },
    body: jsonl(Array.from({ length: count }, (_, i) => event(from + i))),
  })

describePostgres('PostgreSQL store: kill -9 loses no alert', () => {
  it('sends every pending delivery after a restart, in order per hook', async () => {
    const port = await unusedPort()
    const cfg = config(port)
    const args = ['--store', DATABASE_URL, '--schema', schema, '--config', cfg]
    const first = await startServe(args)
    for (let b = 0; b < 4; b++) expect((await ingest(first.url, b * 50, 50)).status).toBe(200)
    // One more batch in flight when the process dies: it is stored with its deliveries, or not at all.
    const inFlight = ingest(first.url, 200, 50).catch(() => null)
    await new Promise((r) => setTimeout(r, 5))
    await first.crash()
    await inFlight

    const receiver = await startReceiver({ port })
    const second = await startServe(args)
    // Which events are stored decides which alerts are owed.
    const stored = new Set<number>()
    for (let n = 0; n < 250; n++) {
      const answer = await request(second.url, `/domain/h${n}.example.com`)
      if (answer.text.includes(`"summary":"n${n}"`)) stored.add(n)
    }
    expect(stored.size).toBeGreaterThanOrEqual(200)
    const owed = {
      '/a': [...stored].sort((x, y) => x - y).map((n) => `n${n}`),
      '/b': [...stored].sort((x, y) => x - y).filter((n) => n % 3 === 0).map((n) => `n${n}`),
    }
    const arrived = (path: string) =>
      receiver.received.filter((r) => r.path === path).map((r) => (JSON.parse(r.body) as { summary: string }).summary)
    const complete = () => firstOccurrences(arrived('/a')).length >= owed['/a'].length && firstOccurrences(arrived('/b')).length >= owed['/b'].length
    await waitFor(complete, 60_000)
    expect(firstOccurrences(arrived('/a'))).toEqual(owed['/a'])
    expect(firstOccurrences(arrived('/b'))).toEqual(owed['/b'])
    expect(await second.stop()).toBe(0)
  })
})
