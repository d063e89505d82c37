/**
 * Live stream fan-out (issue 31): the ingest rate over HTTP (POST /admin/events, memory store)
 * with 100 subscribers of /ws/service connected and reading, against the same ingest with none
 * (target ≥ 0.8). Rounds alternate (without, with, …; best of each), and every round stores new
 * events, so each is fanned out. The subscribers run in a worker thread over raw sockets that
 * do the WebSocket handshake and then only count bytes, so their reading costs the service's
 * thread nothing; at the end each must have received every frame. (The fan-out process holds
 * frames while new events keep coming, so most of a round is delivered after its ingest: the
 * rate measured is the ingest's, and delivery must still be complete before the next round.)
 * Sizes: L9KIT_BENCH_LIVE_EVENTS events a round (default 30000), 3 rounds each.
 */
import { Worker } from 'node:worker_threads'
import { textFrame } from '../src/service/live/frames.js'
import { MemoryStore, parseConfig, startService } from '../src/service/index.js'
import { benchEvent } from './support/events.js'
import { report } from './support/measure.js'

const PER_ROUND = Number(process.env.L9KIT_BENCH_LIVE_EVENTS ?? 30_000)
const ROUNDS = 3
const SUBSCRIBERS = Number(process.env.L9KIT_BENCH_LIVE_SUBSCRIBERS ?? 100)
const BATCH = 2_000
const KEY = 'bench-pro-key-0001'
const ADMIN = 'bench-admin-token-0001'

// Raw WebSocket subscribers: handshake, then count the bytes after the 101's head.
const SUBSCRIBER = `
const { connect } = require('node:net')
const { randomBytes } = require('node:crypto')
const { workerData, parentPort } = require('node:worker_threads')
const { port, count, key } = workerData
const received = new Array(count).fill(0)
let open = 0
for (let i = 0; i < count; i++) {
  const socket = connect(port, '127.0.0.1')
  let head = Buffer.alloc(0)
  let upgraded = false
  socket.on('connect', () => socket.write('GET /ws/service HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n' +
    'Sec-WebSocket-Key: ' + randomBytes(16).toString('base64') + '\\r\\nSec-WebSocket-Version: 13\\r\\napi-key: ' + key + '\\r\\n\\r\\n'))
  socket.on('data', (chunk) => {
    if (upgraded) return void (received[i] += chunk.length)
    head = Buffer.concat([head, chunk])
    const end = head.indexOf('\\r\\n\\r\\n')
    if (end === -1) return
    if (!head.subarray(0, 12).toString().includes('101')) throw new Error('refused: ' + head.toString())
    upgraded = true
    received[i] += head.length - end - 4
    if (++open === count) parentPort.postMessage({ open })
  })
}
parentPort.on('message', () => parentPort.postMessage({ received }))
`

const config = parseConfig(
  JSON.stringify({ keys: [{ name: 'pro', key: KEY, plan: 'pro' }], admin_token: ADMIN, plans: { pro: { rate: null }, anonymous: { rate: null } }, live_buffer_bytes: 256 * 1024 * 1024 }),
  'bench',
)
const store = new MemoryStore()
const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
const port = Number(new URL(service.url).port)

/** One round's bodies (batches of JSON Lines) of events `from`…, and the bytes a /ws/service subscriber gets for them. */
function round(from: number): { bodies: string[]; serviceBytes: number } {
  const bodies: string[] = []
  let serviceBytes = 0
  for (let at = from; at < from + PER_ROUND; at += BATCH) {
    const lines: string[] = []
    for (let i = at; i < Math.min(from + PER_ROUND, at + BATCH); i++) {
      const event = benchEvent(i)
      const line = JSON.stringify(event)
      lines.push(line)
      if (event.event_type === 'service') serviceBytes += textFrame(Buffer.from(line)).length
    }
    bodies.push(lines.join('\n') + '\n')
  }
  return { bodies, serviceBytes }
}

/** Events per second of ingesting one round over HTTP. */
async function ingest(bodies: string[]): Promise<number> {
  const start = process.hrtime.bigint()
  let accepted = 0
  for (const body of bodies) {
    const answer = await fetch(`${service.url}/admin/events`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body })
    accepted += ((await answer.json()) as { accepted: number }).accepted
  }
  if (accepted !== PER_ROUND) throw new Error(`a round stored ${accepted} new events of ${PER_ROUND}`)
  return PER_ROUND / (Number(process.hrtime.bigint() - start) / 1e9)
}

const rounds = Array.from({ length: ROUNDS * 2 }, (_, r) => round(1_000_000 * (r + 1)))
// Warm-up: the ingest path and the fan-out path, outside the measurement.
await ingest(round(0).bodies)

const without: number[] = []
const withSubs: number[] = []
/** Per round with subscribers: ms from the end of its ingest until every subscriber had every frame. */
const deliveredAfter: number[] = []
let worker: Worker | undefined
let expectedBytes = 0
for (let r = 0; r < ROUNDS * 2; r++) {
  const subscribed = r % 2 === 1
  if (subscribed && worker === undefined) {
    worker = new Worker(SUBSCRIBER, { eval: true, workerData: { port, count: SUBSCRIBERS, key: KEY } })
    await new Promise((resolve) => worker!.once('message', resolve))
    while (service.context.live.size < SUBSCRIBERS) await new Promise((r) => setTimeout(r, 10))
  }
  if (!subscribed && worker !== undefined) {
    // Subscribers stay connected for the next "with" round but do not exist for "without": drop them.
    service.context.live.disconnect(1001, 'round over')
    await worker.terminate()
    worker = undefined
    while (service.context.live.size > 0) await new Promise((r) => setTimeout(r, 10))
  }
  const rate = await ingest(rounds[r]!.bodies)
  ;(subscribed ? withSubs : without).push(rate)
  if (subscribed) {
    expectedBytes = rounds[r]!.serviceBytes
    // Every subscriber must get every frame of the round before it counts.
    const ingested = Date.now()
    const end = ingested + 60_000
    for (;;) {
      worker!.postMessage('count')
      const { received } = (await new Promise((resolve) => worker!.once('message', resolve))) as { received: number[] }
      if (received.every((n) => n >= expectedBytes)) {
        deliveredAfter.push(Date.now() - ingested)
        break
      }
      if (Date.now() > end) throw new Error(`subscribers got ${Math.min(...received)} of ${expectedBytes} bytes`)
      await new Promise((r) => setTimeout(r, 50))
    }
    service.context.live.disconnect(1001, 'round over')
    await worker!.terminate()
    worker = undefined
    while (service.context.live.size > 0) await new Promise((r) => setTimeout(r, 10))
  }
}
await service.close(200)

const best = (xs: number[]) => Math.max(...xs)
console.log(`live: ${PER_ROUND} events a round (${(expectedBytes / 1e6).toFixed(1)} MB of /ws/service frames to each of ${SUBSCRIBERS} subscribers), ${ROUNDS} rounds each, alternating`)
report('ingest over HTTP, no subscriber (baseline)', best(without), 'events/s')
report(`ingest over HTTP, ${SUBSCRIBERS} subscribers reading /ws/service`, best(withSubs), 'events/s', {
  value: best(withSubs) / best(without),
  baseline: 'no subscriber',
  target: '>= 0.8',
})
console.log(`rounds without: ${without.map((x) => x.toFixed(0)).join(', ')}; with: ${withSubs.map((x) => x.toFixed(0)).join(', ')}`)
console.log(`every frame delivered ${deliveredAfter.join(', ')} ms after each round's ingest ended (checked every 50 ms)`)
