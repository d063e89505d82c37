/**
 * The live stream's fan-out process (live/fanout.ts): subscribers' connections are handed to a
 * child process, which writes their frames. A subscriber gets every new event in order across
 * many writes; a killed fan-out process drops its subscribers but not the service, and the next
 * subscriber starts a new one; the service's stop ends it.
 */
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MemoryStore } from '../../src/service/index.js'
import { jsonl, KEYS, makeEvent, request, serveForTest, unlimitedConfig } from './support.js'

function connect(base: string, path: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { 'api-key': KEYS.pro } })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

function summaries(ws: WebSocket): string[] {
  const got: string[] = []
  ws.on('message', (data) => got.push(JSON.parse(data.toString()).summary))
  return got
}

async function until(done: () => boolean, ms = 90_000): Promise<void> {
  const end = Date.now() + ms
  while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 10))
}

/** Whether a process of that id is there. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const leak = (n: number, tag = '') => makeEvent({ event_type: 'leak', ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, summary: `${tag}${n}` })

describe('live stream fan-out process', async () => {
  // A small unread limit, so the events of a batch go out in several writes.
  const service = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig({ live_buffer_bytes: 16_384 }) })
  const ingest = (docs: unknown[]) => request(service.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })

  it('delivers every new event, in order, from a process of its own', async () => {
    const ws = await connect(service.url, '/ws/leak')
    const got = summaries(ws)
    const pid = service.context.live.fanoutPid
    expect(pid).toBeGreaterThan(0)
    expect(pid).not.toBe(process.pid)
    const expected: string[] = []
    for (let batch = 0; batch < 3; batch++) {
      const docs = Array.from({ length: 120 }, (_, i) => leak(batch * 1000 + i, 'order '))
      expect((await ingest(docs)).json).toMatchObject({ accepted: docs.length })
      expected.push(...docs.map((d) => d.summary))
    }
    await until(() => got.length >= expected.length)
    expect(got).toEqual(expected)
    ws.close()
    await until(() => service.context.live.size === 0)
  })

  it('a subscriber that joins while events are held gets exactly those stored after it', async () => {
    // The default unread limit: the fan-out process holds these events until new ones pause.
    const own = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
    const ingest = (docs: unknown[]) => request(own.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })
    const first = await connect(own.url, '/ws/leak')
    const gotFirst = summaries(first)
    const before = Array.from({ length: 30 }, (_, i) => leak(2000 + i, 'before '))
    await ingest(before)
    // At once: the fan-out process may still hold `before` for the first subscriber.
    const second = await connect(own.url, '/ws/leak')
    const gotSecond = summaries(second)
    const after = Array.from({ length: 30 }, (_, i) => leak(3000 + i, 'after '))
    await ingest(after)
    await until(() => gotFirst.length >= 60 && gotSecond.length >= 30)
    expect(gotFirst).toEqual([...before, ...after].map((d) => d.summary))
    expect(gotSecond).toEqual(after.map((d) => d.summary))
    first.close()
    second.close()
  })

  it('a killed fan-out process drops its subscribers, not the service; the next subscriber starts a new one', async () => {
    const ws = await connect(service.url, '/ws/leak')
    await until(() => service.context.live.size === 1)
    const pid = service.context.live.fanoutPid!
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    process.kill(pid, 'SIGKILL')
    expect(await closed).toBe(1006) // (no close frame: the connection dropped)
    await until(() => service.context.live.size === 0)
    expect(service.context.live.size).toBe(0)
    expect((await request(service.url, '/host/10.0.0.1')).status).toBe(200)

    const again = await connect(service.url, '/ws/leak')
    const got = summaries(again)
    expect(service.context.live.fanoutPid).not.toBe(pid)
    await ingest([leak(5000, 'after ')])
    await until(() => got.length >= 1)
    expect(got).toEqual(['after 5000'])
    again.close()
    await until(() => service.context.live.size === 0)
  })

  it('ends with the service', async () => {
    const own = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
    const ws = await connect(own.url, '/ws/service')
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    const pid = own.context.live.fanoutPid!
    expect(alive(pid)).toBe(true)
    await own.close(500)
    expect(await closed).toBe(1001)
    expect(alive(pid)).toBe(false)
  })
})
