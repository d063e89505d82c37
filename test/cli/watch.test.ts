/**
 * `l9kit watch`: prints the stream as JSON Lines (in-process, against a served memory store),
 * connects again after the server cut it off, stops cleanly on the stop signal, ends with exit 2
 * when the stream is refused; and the built binary exits 0 on SIGTERM.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, serveForTest, unlimitedConfig } from '../service/support.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { running } from '../support/running.js'
import { runCli } from '../support/streams.js'

const leak = (n: number) => makeEvent({ event_type: 'leak', ip: `192.0.2.${n}`, summary: `leak ${n}`, leak: { ...makeEvent({}).leak, severity: 'low' } })

describe('l9kit watch', async () => {
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
  const ingest = (docs: unknown[]) => request(service.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })
  /** Waits (bounded) until the service has exactly `n` subscribers. */
  const subscribers = async (n: number) => {
    const end = Date.now() + 10_000
    while (service.context.live.size !== n && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
  }

  it('prints each new event of the scope as one JSON line, and again after a reconnect', async () => {
    await subscribers(0)
    const watcher = running(['watch', service.url, '--scope', 'leak', '--api-key', KEYS.pro, '--query', '*'])
    await subscribers(1)
    await ingest([leak(1), makeEvent({ ip: '192.0.2.99' })])
    await watcher.stdout.waitFor(/leak 1/)
    service.context.live.disconnect(1001, 'going away') // the service cuts every subscriber: watch connects again
    await watcher.stderr.waitFor(/connecting again in 1 s/)
    await subscribers(0)
    await subscribers(1)
    await ingest([leak(2)])
    await watcher.stdout.waitFor(/leak 2/)
    expect(await watcher.stop()).toBe(0)
    const lines = watcher.stdout.text.trim().split('\n').map((l) => JSON.parse(l).summary)
    expect(lines).toEqual(['leak 1', 'leak 2'])
  })

  it('ends with exit 2 and the server’s reason when the stream is refused', async () => {
    const r = await runCli(['watch', service.url, '--scope', 'service', '--api-key', KEYS.registered])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit watch: GET \/ws\/service: 403 Forbidden: Forbidden: The live stream is for pro keys/)
    const usage = await runCli(['watch', 'ftp://x'])
    expect(usage.code).toBe(2)
  })

  it('the binary exits 0 on SIGTERM', async () => {
    await subscribers(0)
    const child = spawn(process.execPath, [BUILT_CLI, 'watch', service.url, '--api-key', KEYS.pro], { stdio: ['ignore', 'pipe', 'pipe'] })
    await subscribers(1)
    const out: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    await ingest([leak(3)])
    const end = Date.now() + 10_000
    while (!Buffer.concat(out).toString().includes('leak 3') && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
    const code = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
    child.kill('SIGTERM')
    expect(await code).toBe(0)
    expect(Buffer.concat(out).toString()).toContain('"summary":"leak 3"')
  })
})
