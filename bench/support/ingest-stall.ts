/**
 * Does a large ingest stall lookups? Host-lookup latency measured from a worker thread over
 * keep-alive sockets: while idle, during a 16 MiB `POST /admin/events` of lenient documents
 * (the normalising path, processed in slices), and, for contrast, during the same documents
 * ingested in one piece (one store.ingest call, the behaviour before issue 14). Any store: the
 * memory store by default, the PostgreSQL store from bench/postgres.bench.ts.
 */
import { request } from 'node:http'
import { Worker } from 'node:worker_threads'
import { MemoryStore, parseConfig, startService, type Store } from '../../src/service/index.js'
import { benchEvent } from './events.js'
import { mb, report } from './measure.js'

// Each socket: one request in flight; records [absolute start ms, latency ms] per answer.
const PROBE = `
const { connect } = require('node:net')
const { workerData, parentPort } = require('node:worker_threads')
const { port, target, connections, ms } = workerData
const request = Buffer.from('GET ' + target + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: application/json\\r\\n\\r\\n')
const now = () => performance.timeOrigin + performance.now()
const samples = []
let bad = 0, open = connections
const stopAt = now() + ms
for (let c = 0; c < connections; c++) {
  const socket = connect(port, '127.0.0.1')
  let buffer = Buffer.alloc(0), sent = 0
  const send = () => { sent = now(); socket.write(request) }
  socket.on('connect', send)
  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    const end = buffer.indexOf('\\r\\n\\r\\n')
    if (end === -1) return
    const head = buffer.toString('latin1', 0, end).toLowerCase()
    const length = parseInt(head.slice(head.indexOf('content-length:') + 15), 10)
    if (buffer.length < end + 4 + length) return
    if (head.slice(9, 12) !== '200') bad++
    samples.push([sent, now() - sent])
    buffer = buffer.subarray(end + 4 + length)
    if (now() < stopAt) send()
    else socket.end()
  })
  socket.on('close', () => { if (--open === 0) parentPort.postMessage({ samples, bad }) })
  socket.on('error', () => { bad++ })
}
`

type Sample = [start: number, latency: number]

function probe(port: number, target: string, ms: number): Promise<Sample[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(PROBE, { eval: true, workerData: { port, target, connections: 4, ms } })
    worker.once('message', (r: { samples: Sample[]; bad: number }) => (r.bad > 0 ? reject(new Error(`${r.bad} bad answers`)) : resolve(r.samples)))
    worker.once('error', reject)
  })
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN
}
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export interface StallResult {
  bodyBytes: number
  documents: number
  idle: { p50: number; p99: number; n: number }
  sliced: { p50: number; p99: number; n: number; ingestMs: number }
  onePiece: { p50: number; p99: number; n: number; ingestMs: number }
}

/** Lenient (non-canonical) documents up to `bytes`, as JSON Lines. */
function lenientBody(bytes: number, from: number): { body: string; docs: string[] } {
  const docs: string[] = []
  let size = 0
  for (let i = from; size < bytes; i++) {
    const e = benchEvent(i) as unknown as Record<string, unknown>
    const text = JSON.stringify({ ...e, port: Number(e.port), tags: null, time: String(e.time).replace('Z', '+00:00') })
    docs.push(text)
    size += text.length + 1
  }
  return { body: docs.join('\n') + '\n', docs }
}

/**
 * POSTs the body with node:http. (Not fetch: this client shares the service's event loop, and
 * fetch's first use loads and sets up undici there, a stall of tens of ms that is the bench's
 * own, not the service's.)
 */
function post(url: string, token: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson', 'content-length': body.length }
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Runs the three rounds against a fresh service on 127.0.0.1 over `store` (empty; a memory store if none). */
export async function measureIngestStall(baseEvents = 20_000, store: Store = new MemoryStore()): Promise<StallResult> {
  const token = 'bench-admin-token-0123456789'
  await store.ingest(Array.from({ length: baseEvents }, (_, i) => benchEvent(i)))
  const config = parseConfig(JSON.stringify({ admin_token: token, max_body_bytes: 64 << 20, plans: { anonymous: { rate: 1e9, burst: 1e9 } } }), 'bench')
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  const target = '/host/198.51.0.5'
  const stats = (samples: Sample[], from = -Infinity, to = Infinity) => {
    const inside = samples.filter(([start, latency]) => start + latency >= from && start <= to).map(([, latency]) => latency)
    return { p50: percentile(inside, 50), p99: percentile(inside, 99), n: inside.length }
  }
  try {
    const idle = stats(await probe(service.port, target, 2000))

    const sliced = lenientBody(16 << 20, 1_000_000)
    const body = Buffer.from(sliced.body) // encoded before the clock starts
    const round1 = probe(service.port, target, 6000)
    await sleep(300)
    const t0 = now()
    const status = await post(`${service.url}/admin/events`, token, body)
    const t1 = now()
    if (status !== 200) throw new Error(`ingest answered ${status}`)
    const during = stats(await round1, t0, t1)

    const piece = lenientBody(16 << 20, 2_000_000).docs.map((d) => JSON.parse(d) as unknown)
    const round2 = probe(service.port, target, 6000)
    await sleep(300)
    const t2 = now()
    await store.ingest(piece) // one piece (synchronous in the memory store), as before slicing
    const t3 = now()
    const blocked = stats(await round2, t2, t3)
    return {
      bodyBytes: body.length,
      documents: sliced.docs.length,
      idle,
      sliced: { ...during, ingestMs: t1 - t0 },
      onePiece: { ...blocked, ingestMs: t3 - t2 },
    }
  } finally {
    await service.close(100)
  }
}

/** Prints a stall measurement, ending with its ratio to the idle p99 and the target. */
export function printStall(storeName: string, stall: StallResult): void {
  const ms = (x: number) => `${x.toFixed(2)} ms`
  console.log(`ingest stall, ${storeName}: ${mb(stall.bodyBytes).toFixed(1)} MiB, ${stall.documents} lenient documents; ingest took ${stall.sliced.ingestMs.toFixed(0)} ms in slices, ${stall.onePiece.ingestMs.toFixed(0)} ms in one piece`)
  console.log(`host lookup p50/p99 idle: ${ms(stall.idle.p50)} / ${ms(stall.idle.p99)} (${stall.idle.n} requests)`)
  console.log(`host lookup p50/p99 during sliced ingest: ${ms(stall.sliced.p50)} / ${ms(stall.sliced.p99)} (${stall.sliced.n} requests)`)
  console.log(`host lookup p50/p99 during one-piece ingest: ${ms(stall.onePiece.p50)} / ${ms(stall.onePiece.p99)} (${stall.onePiece.n} requests)`)
  report(`lookup p99 during 16 MiB ingest, ${storeName}`, stall.sliced.p99, 'ms', { value: stall.sliced.p99 / stall.idle.p99, baseline: 'idle p99', target: '<= 3' })
}
