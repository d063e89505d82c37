/**
 * Abuse of the live stream (issue 40): more connections than a key and the service allow, a
 * filter too costly to start, a filter that cannot keep up with new events (1013 with the reason,
 * the others served in full), conformance runs' test events kept to their own subscribers, and
 * a fan-out process that does not answer when the service stops. Lookups keep answering (p90
 * within RATIO × the same run's idle p90).
 */
import { beforeAll, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { emptyEvent } from '../../../src/schema/index.js'
import type { RunningService } from '../../../src/service/index.js'
import { jsonl, request } from '../support.js'
import { abuseConfig, costlyEvent, forEachStore, KEYS, RATIO, serveAbuse, underAbuse, WORDS_128, withService } from './support.js'

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 })

interface Refusal {
  status: number
  body: string
}

/** Opens a subscription: the socket once open, or the HTTP refusal. */
function connect(service: RunningService, path: string, key = KEYS.pro): Promise<WebSocket | Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(service.url.replace(/^http/, 'ws') + path, { headers: { 'api-key': key } })
    ws.once('open', () => resolve(ws))
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }))
    })
    ws.once('error', reject)
  })
}

const opened = async (service: RunningService, path: string, key?: string) => {
  const ws = await connect(service, path, key)
  if (!(ws instanceof WebSocket)) throw new Error(`refused: ${ws.status} ${ws.body}`)
  return ws
}

/** The summaries a socket receives, as they come. */
function summaries(ws: WebSocket): string[] {
  const got: string[] = []
  ws.on('message', (data) => got.push((JSON.parse(data.toString()) as { summary: string }).summary))
  return got
}

const closing = (ws: WebSocket) => new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })))

async function eventually(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20))
}

const ingest = (service: RunningService, docs: unknown[]) =>
  request(service.url, '/admin/events', { method: 'POST', headers: { authorization: `Bearer ${KEYS.admin}` }, body: jsonl(docs) })

/** New events, at addresses of their own (from `from` on). */
const fresh = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => {
    const e = costlyEvent(100_000 + from + k)
    e.ip = `203.0.113.${(from + k) % 250}`
    e.summary = `fresh ${from + k} ${e.summary}`
    return e
  })

forEachStore('live stream abuse', (kind) => {
  let service: RunningService
  beforeAll(async () => {
    // Two connections per key, three in all; a filter may do 2 000 units a second (20 000 at once).
    const config = abuseConfig({ max_live_connections: 3, live_filter_work: 2_000, plans: { pro: { live_connections: 2, max_query_cost: 1_000 } } })
    service = await serveAbuse(await kind.make(), config, 200)
  })

  it('takes at most live_connections per key and max_live_connections in all (429 with the reason), and a filter within the plan’s cost only (422)', async () => {
    const held = [await opened(service, '/ws/service'), await opened(service, '/ws/leak')]
    const perKey = (await connect(service, '/ws/service')) as Refusal
    expect(perKey.status).toBe(429)
    expect(JSON.parse(perKey.body).description).toMatch(/^The pro plan allows 2 live-stream connections at once per key/)
    held.push(await opened(service, '/ws/service', KEYS.pro2))
    const inAll = (await connect(service, '/ws/service', KEYS.pro2)) as Refusal
    expect(inAll.status).toBe(429)
    expect(JSON.parse(inAll.body).description).toMatch(/^The service runs at most 3 live-stream connections at once/)
    for (const ws of held) ws.close()
    await eventually(() => service.context.slots.live.held() === 0)
    const costly = (await connect(service, `/ws/service?q=${encodeURIComponent('+port:22 +summary:~"([^a]{0,50}[^b]{0,50}){10}z"')}`)) as Refusal
    expect(costly.status).toBe(422)
    expect(JSON.parse(costly.body).description).toMatch(/the pro plan allows 1000/)
  })

  it('closes a subscriber whose filter cannot keep up (1013, with the reason) and serves the others every event', async () => {
    const { ratio, said } = await underAbuse(service.url, async () => {
      const costly = await opened(service, `/ws/service?q=${encodeURIComponent(WORDS_128)}`)
      const cheap = await opened(service, '/ws/service')
      const got = summaries(cheap)
      const closed = closing(costly)
      // 768 units an event: the budget's 20 000 last some 25 events, and these come faster than 2 000 a second buys.
      const docs = fresh(0, 120)
      for (let i = 0; i < docs.length; i += 40) await ingest(service, docs.slice(i, i + 40))
      expect(await closed).toMatchObject({ code: 1013, reason: expect.stringMatching(/^filter too costly for the new events/) })
      await eventually(() => got.length === docs.length)
      expect(got).toEqual(docs.map((d) => d.summary))
      cheap.close()
    })
    expect(ratio, said).toBeLessThan(RATIO)
    await eventually(() => service.context.slots.live.held() === 0)
  })

  it('sends a conformance run’s test events to that run’s subscribers only, as hooks get them', async () => {
    const anyone = await opened(service, '/ws/leak')
    const runner = await opened(service, '/ws/leak?l9kit-conform-run=r1a2b3')
    const [seen, ran] = [summaries(anyone), summaries(runner)]
    const leak = (summary: string, tags: string[]) => ({ ...emptyEvent(), event_type: 'leak', event_source: 'AbusePlugin', ip: '192.0.2.77', port: String(1000 + tags.length + summary.length), summary, tags, time: '2026-02-02T00:00:00Z', leak: { ...emptyEvent().leak, severity: 'info', stage: 'open' } })
    await ingest(service, [leak('the run’s own', ['l9kit-conform:r1a2b3']), leak('another run’s', ['x', 'l9kit-conform:other']), leak('nobody’s run', ['x'])])
    await eventually(() => seen.length >= 1 && ran.length >= 1)
    // A last event for each, so that nothing else was on its way.
    await ingest(service, [leak('the end', []), leak('the run’s end', ['l9kit-conform:r1a2b3'])])
    await eventually(() => seen.includes('the end') && ran.includes('the run’s end'))
    expect(seen).toEqual(['nobody’s run', 'the end'])
    expect(ran).toEqual(['the run’s own', 'the run’s end'])
    anyone.close()
    runner.close()
  })

  it('stops a fan-out process that does not answer (stopped by a signal) within the service’s stop', async () => {
    await withService(await kind.make(), abuseConfig(), 10, async (stopping) => {
      const ws = await opened(stopping, '/ws/service')
      const pid = stopping.context.live.fanoutPid!
      process.kill(pid, 'SIGSTOP')
      // Told to close, it cannot: it is killed after its deadline, and the service's stop resolves.
      await stopping.close(500)
      expect(() => process.kill(pid, 0)).toThrow()
      ws.terminate()
    })
  })
})
