/**
 * `l9kit watch`: prints the stream as JSON Lines (in-process, against a served memory store),
 * says when it is listening (after which no event is missed), connects again after the server
 * cut it off, waits out a 429 at most an hour, writes one terminal-safe line per event, stops
 * cleanly on the stop signal, ends with exit 2 when the stream is refused; and the built binary
 * exits 0 on SIGTERM.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { WebSocketServer } from 'ws'
import { emptyEvent } from '../../src/schema/index.js'
import { MemoryStore } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, serveForTest, unlimitedConfig } from '../service/support.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { running } from '../support/running.js'
import { runCli } from '../support/streams.js'

const leak = (n: number) => makeEvent({ event_type: 'leak', ip: `192.0.2.${n}`, summary: `leak ${n}`, leak: { ...makeEvent({}).leak, severity: 'low' } })

describe('l9kit watch', async () => {
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
  const ingest = (docs: unknown[]) => request(service.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })
  const listening = new RegExp(`^listening on ${service.url.replace('http', 'ws').replace(/[.]/g, '\\.')}/ws/leak\\?q=\\*$`, 'm')

  it('says "listening on ws://…" once the server has the subscription: an event ingested right after is printed, as one JSON line; again after a reconnect', async () => {
    const watcher = running(['watch', service.url, '--scope', 'leak', '--api-key', KEYS.pro, '--query', '*'])
    await watcher.stderr.waitFor(listening)
    // No wait of any kind between the line and the ingest: the event must still arrive.
    await ingest([leak(1), makeEvent({ ip: '192.0.2.99' })])
    await watcher.stdout.waitFor(/leak 1/)
    service.context.live.disconnect(1001, 'going away') // the service cuts every subscriber: watch connects again
    await watcher.stderr.waitFor(/connecting again in 1 s\n(.*\n)*listening on/)
    await ingest([leak(2)])
    await watcher.stdout.waitFor(/leak 2/)
    expect(await watcher.stop()).toBe(0)
    const lines = watcher.stdout.text.trim().split('\n').map((l) => JSON.parse(l).summary)
    expect(lines).toEqual(['leak 1', 'leak 2'])
    expect(watcher.stderr.text.match(new RegExp(listening.source, 'gm'))).toHaveLength(2)
  })

  it('ends with exit 2 and the server’s reason (not repeated) when the stream is refused', async () => {
    const r = await runCli(['watch', service.url, '--scope', 'service', '--api-key', KEYS.registered])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit watch: GET \/ws\/service: 403 Forbidden: The live stream is for pro keys/)
    const usage = await runCli(['watch', 'ftp://x'])
    expect(usage.code).toBe(2)
  })

  it('waits out a 429 at most an hour, however long x-limited-for says (no reconnecting in a loop)', async () => {
    let upgrades = 0
    const server = createServer()
    server.on('upgrade', (_req, socket) => {
      upgrades++
      const body = JSON.stringify({ title: 'Rate-limited', description: 'wait' })
      socket.end(`HTTP/1.1 429 Rate-limited\r\ncontent-type: application/json\r\nx-limited-for: 2000000h\r\ncontent-length: ${body.length}\r\n\r\n${body}`)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const watcher = running(['watch', `http://127.0.0.1:${(server.address() as AddressInfo).port}`, '--api-key', 'k'])
      await watcher.stderr.waitFor(/connecting again in \d+ s\n/)
      expect(watcher.stderr.text).toMatch(/^l9kit watch: GET \/ws\/leak: 429 Rate-limited: wait; connecting again in 3600 s\n$/)
      expect(await watcher.stop()).toBe(0)
      expect(upgrades).toBe(1)
    } finally {
      server.close()
    }
  })

  it('writes each event on one line, compact when the server sent it over several, with terminal controls escaped', async () => {
    const hostile = 'a\u009b31m\u001b]0;x\u0007\u202eb'
    const event = { ...emptyEvent(), event_type: 'leak', ip: '192.0.2.5', summary: hostile }
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
    wss.on('connection', (ws) => ws.send(JSON.stringify(event, null, 2)))
    await new Promise((resolve) => wss.once('listening', resolve))
    try {
      const watcher = running(['watch', `http://127.0.0.1:${(wss.address() as AddressInfo).port}`, '--api-key', 'k'])
      await watcher.stdout.waitFor(/\n/)
      expect(await watcher.stop()).toBe(0)
      const line = watcher.stdout.text
      expect(line.split('\n')).toHaveLength(2)
      expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/)
      expect(line).toContain('a\\u009b31m\\u001b]0;x\\u0007\\u202eb')
      expect(JSON.parse(line)).toEqual(event)
    } finally {
      wss.close()
    }
  })

  it('the binary exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'watch', service.url, '--api-key', KEYS.pro], { stdio: ['ignore', 'pipe', 'pipe'] })
    let err = ''
    child.stderr.on('data', (b: Buffer) => (err += b.toString()))
    while (!err.includes('listening on')) await new Promise((r) => setTimeout(r, 10))
    const out: Buffer[] = []
    child.stdout.on('data', (b: Buffer) => out.push(b))
    await ingest([leak(3)])
    while (!Buffer.concat(out).toString().includes('leak 3')) await new Promise((r) => setTimeout(r, 10))
    const code = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
    child.kill('SIGTERM')
    expect(await code).toBe(0)
    expect(Buffer.concat(out).toString()).toContain('"summary":"leak 3"')
  })
})
