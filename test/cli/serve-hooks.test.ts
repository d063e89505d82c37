/** `l9kit serve` and hooks: --allow-private-hooks, and the report of pending deliveries at stop. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { jsonl, request } from '../service/support.js'
import { startReceiver } from '../service/hooks/support.js'
import { running } from '../support/running.js'
import { fileTempDir } from '../support/temp.js'

/** Runs `l9kit serve ...` in-process until `stop()`. */
const serve = (argv: string[]) => running(['serve', ...argv])

const dir = fileTempDir('l9kit-serve-hooks-')
const PRO = 'pro-key-serve-01'
const ADMIN = 'admin-token-serve'

function configFile(): string {
  const file = join(dir, 'config.json')
  writeFileSync(
    file,
    JSON.stringify({
      keys: [{ name: 'pro', key: PRO, plan: 'pro', resources: [{ type: 'domain', value: 'pending.test' }] }],
      admin_token: ADMIN,
      plans: { pro: { rate: null } },
      hook_delivery: { timeout_ms: 60_000 },
    }),
  )
  return file
}

describe('l9kit serve with hooks', () => {
  it('refuses a loopback hook without --allow-private-hooks', async () => {
    writeFileSync(join(dir, 'none.jsonl'), '')
    const run = serve(['--port', '0', '--config', configFile(), '--load', join(dir, 'none.jsonl')])
    const url = (await run.url())!
    const answer = await request(url, '/api/hooks', { method: 'POST', headers: { 'api-key': PRO }, body: JSON.stringify({ url: 'http://127.0.0.1:9/' }) })
    expect(answer.status, answer.text).toBe(400)
    expect(answer.text).toContain('refused target')
    expect(await run.stop()).toBe(0)
  })

  it('with --allow-private-hooks accepts it, and at stop reports the deliveries still pending', async () => {
    writeFileSync(join(dir, 'none.jsonl'), '')
    const receiver = await startReceiver(() => 'hang')
    const run = serve(['--port', '0', '--config', configFile(), '--allow-private-hooks', '--load', join(dir, 'none.jsonl')])
    const url = (await run.url())!
    const hook = await request(url, '/api/hooks', { method: 'POST', headers: { 'api-key': PRO }, body: JSON.stringify({ url: receiver.url, min_severity: 'info' }) })
    expect(hook.status, hook.text).toBe(201)
    const docs = [1, 2, 3].map((n) => ({ event_type: 'leak', event_source: 'Serve', host: `h${n}.pending.test`, ip: `192.0.2.${n}`, time: '2024-01-01T00:00:00Z', summary: `p${n}`, leak: { severity: 'high' } }))
    const ingested = await request(url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: jsonl(docs) })
    expect(ingested.status).toBe(200)
    while (receiver.requests.length === 0) await new Promise((r) => setTimeout(r, 10)) // (bounded by the test's timeout)
    expect(receiver.requests.length).toBe(1) // the first is in flight (never answered), the others wait behind it
    expect(await run.stop()).toBe(0)
    expect(run.stderr.text).toContain('3 hook deliveries still pending (lost: the memory store does not keep them)\n')
  })
})
