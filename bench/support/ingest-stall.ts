/**
 * Does a large ingest stall lookups? Host-lookup latency measured from a worker thread over
 * keep-alive sockets: while idle, during a 16 MiB `POST /admin/events` of lenient documents
 * (the normalising path, processed in slices), and, for contrast, during the same documents
 * ingested in one piece (one store.ingest call, the behaviour before issue 14); and, to show
 * what the machine alone costs, beside a thread that only keeps a core busy, at the prepare
 * workers' priority, for as long as the sliced ingest took. Any store: the
 * memory store by default, the PostgreSQL store from bench/postgres.bench.ts. To explain
 * itself it also prints what the service's thread went through during the sliced ingest: its GC
 * pauses, its event-loop delay, and (Linux) how long it ran and how long it waited for a core.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks'
import { readFileSync } from 'node:fs'
import { Worker } from 'node:worker_threads'
import { MemoryStore, parseConfig, startService, type Store } from '../../src/service/index.js'
import { benchEvent } from './events.js'
import { mb, report } from './measure.js'
import { probe, type Probed, type ProbeGc, spin } from './stall-threads.js'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN
}
const now = () => performance.timeOrigin + performance.now()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** What the main thread did during the sliced ingest: its GC pauses and its longest event-loop blocks. */
export interface MainThreadLog {
  gcCount: number
  gcTotalMs: number
  gcMaxMs: number
  /** Pauses of at least 1 ms, by kind (minor = scavenge, major = mark-compact, …). */
  gcOver1ms: Record<string, { count: number; ms: number }>
  /** Event-loop delay (monitorEventLoopDelay, 1 ms resolution): max and p99. */
  loopMaxMs: number
  loopP99Ms: number
  /** Linux (/proc/thread-self/schedstat): ms this thread ran, and ms it was ready to run but waited for a core; NaN elsewhere. */
  ranMs: number
  waitedMs: number
}

/** [ns on a core, ns waiting for one] of the calling thread, from Linux's schedstat. */
function schedstat(): [number, number] {
  try {
    const [ran, waited] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number)
    return [ran!, waited!]
  } catch {
    return [NaN, NaN]
  }
}

/** This thread's ms on a core and ms waiting for one since a schedstat() reading. */
function since([ran0, waited0]: [number, number]): { ranMs: number; waitedMs: number } {
  const [ran, waited] = schedstat()
  return { ranMs: (ran - ran0) / 1e6, waitedMs: (waited - waited0) / 1e6 }
}

export interface StallResult {
  bodyBytes: number
  documents: number
  idle: { p50: number; p99: number; n: number; probeGc: ProbeGc; cpu: { ranMs: number; waitedMs: number } }
  sliced: { p50: number; p99: number; n: number; probeGc: ProbeGc; ingestMs: number; main: MainThreadLog }
  /** Lookups while a thread at the workers' priority only kept a core busy, for as long as the sliced ingest took. */
  busyCore: { p50: number; p99: number; n: number; probeGc: ProbeGc }
  onePiece: { p50: number; p99: number; n: number; probeGc: ProbeGc; ingestMs: number }
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

const encoded = (built: { body: string; docs: string[] }) => ({ body: Buffer.from(built.body), documents: built.docs.length })

// The uploading client: a thread of its own, as a real client is another process. (On the
// service's thread, writing the 16 MiB into the socket took its own 2–3 ms blocks, the
// bench's and not the service's.) Given the request first; POSTs it when told to, and
// answers with the status.
const UPLOADER = `
const { request } = require('node:http')
const { parentPort } = require('node:worker_threads')
let next
parentPort.on('message', (message) => {
  if (message !== 'go') return void (next = message)
  const { url, token, body } = next
  const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/x-ndjson', 'content-length': body.length }
  const req = request(url, { method: 'POST', headers }, (res) => {
    res.resume()
    res.on('end', () => parentPort.postMessage(res.statusCode))
  })
  req.on('error', (error) => parentPort.postMessage(String(error)))
  req.end(body)
})
parentPort.postMessage('ready')
`

/**
 * A client thread, started and given the body before the clock starts, that POSTs it when
 * told to. (node:http, not fetch: fetch's first use sets up undici, a stall of its own.)
 */
async function uploader(url: string, token: string, body: Buffer): Promise<{ post(): Promise<number>; close(): Promise<number> }> {
  const worker = new Worker(UPLOADER, { eval: true })
  await new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  worker.postMessage({ url, token, body })
  return {
    post: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (status: number | string) => (typeof status === 'number' ? resolve(status) : reject(new Error(status))))
        worker.postMessage('go')
      }),
    close: () => worker.terminate(),
  }
}

/** Runs the three rounds against a fresh service on 127.0.0.1 over `store` (empty; a memory store if none). */
export async function measureIngestStall(baseEvents = 20_000, store: Store = new MemoryStore()): Promise<StallResult> {
  const token = 'bench-admin-token-0123456789'
  await store.ingest(Array.from({ length: baseEvents }, (_, i) => benchEvent(i)))
  const config = parseConfig(JSON.stringify({ admin_token: token, max_body_bytes: 64 << 20, plans: { anonymous: { rate: 1e9, burst: 1e9 } } }), 'bench')
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  const target = '/host/198.51.0.5'
  const stats = ({ samples, gc }: Probed, from = -Infinity, to = Infinity) => {
    const inside: number[] = []
    for (let i = 0; i < samples.length; i += 2) {
      const start = samples[i]!
      const latency = samples[i + 1]!
      if (start + latency >= from && start <= to) inside.push(latency)
    }
    return { p50: percentile(inside, 50), p99: percentile(inside, 99), n: inside.length, probeGc: gc }
  }
  try {
    const cpu0 = schedstat() // (nothing else watched while idle: the baseline stays as it was)
    const idle = { ...stats(await probe(service.port, target, 2000)), cpu: since(cpu0) }

    // Encoded before the clock starts; the strings it was built from are let go, so that this
    // bench's own 16 MiB of live young strings are not what a scavenge during the ingest copies.
    const { body, documents } = encoded(lenientBody(16 << 20, 1_000_000))
    const client = await uploader(`${service.url}/admin/events`, token, body)
    const round1 = probe(service.port, target, 6000)
    await sleep(300)
    const watch = watchMainThread()
    const t0 = now()
    const status = await client.post()
    const t1 = now()
    await client.close()
    const main = watch.stop()
    if (status !== 200) throw new Error(`ingest answered ${status}`)
    const during = stats(await round1, t0, t1)

    const round3 = probe(service.port, target, 3000)
    await sleep(300)
    const t4 = now()
    await spin(t1 - t0)
    const t5 = now()
    const busyCore = stats(await round3, t4, t5)

    const piece = lenientBody(16 << 20, 2_000_000).docs.map((d) => JSON.parse(d) as unknown)
    const round2 = probe(service.port, target, 6000)
    await sleep(300)
    const t2 = now()
    await store.ingest(piece) // one piece (synchronous in the memory store), as before slicing
    const t3 = now()
    const blocked = stats(await round2, t2, t3)
    return {
      bodyBytes: body.length,
      documents,
      idle,
      sliced: { ...during, ingestMs: t1 - t0, main },
      busyCore,
      onePiece: { ...blocked, ingestMs: t3 - t2 },
    }
  } finally {
    await service.close(100)
  }
}

const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' }

/** Starts recording this thread's GC pauses and event-loop delay; stop() returns what was seen. */
function watchMainThread(): { stop(): MainThreadLog } {
  const log: MainThreadLog = { gcCount: 0, gcTotalMs: 0, gcMaxMs: 0, gcOver1ms: {}, loopMaxMs: 0, loopP99Ms: 0, ranMs: 0, waitedMs: 0 }
  const cpu0 = schedstat()
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      log.gcCount++
      log.gcTotalMs += entry.duration
      log.gcMaxMs = Math.max(log.gcMaxMs, entry.duration)
      if (entry.duration < 1) continue
      const kind = GC_KINDS[(entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0] ?? 'other'
      const k = (log.gcOver1ms[kind] ??= { count: 0, ms: 0 })
      k.count++
      k.ms += entry.duration
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  const loop = monitorEventLoopDelay({ resolution: 1 })
  loop.enable()
  return {
    stop() {
      loop.disable()
      observer.disconnect()
      log.loopMaxMs = loop.max / 1e6
      log.loopP99Ms = loop.percentile(99) / 1e6
      Object.assign(log, since(cpu0))
      return log
    },
  }
}

/** Prints a stall measurement, ending with its ratio to the idle p99 and the target. */
export function printStall(storeName: string, stall: StallResult): void {
  const ms = (x: number) => `${x.toFixed(2)} ms`
  console.log(`ingest stall, ${storeName}: ${mb(stall.bodyBytes).toFixed(1)} MiB, ${stall.documents} lenient documents; ingest took ${stall.sliced.ingestMs.toFixed(0)} ms in slices, ${stall.onePiece.ingestMs.toFixed(0)} ms in one piece`)
  const gc = (g: ProbeGc) => `probe's own GC ${g.count} pauses, longest ${ms(g.maxMs)}`
  console.log(`host lookup p50/p99 idle: ${ms(stall.idle.p50)} / ${ms(stall.idle.p99)} (${stall.idle.n} requests; main thread on a core ${stall.idle.cpu.ranMs.toFixed(0)} ms, waiting for one ${stall.idle.cpu.waitedMs.toFixed(0)} ms; ${gc(stall.idle.probeGc)})`)
  console.log(`host lookup p50/p99 during sliced ingest: ${ms(stall.sliced.p50)} / ${ms(stall.sliced.p99)} (${stall.sliced.n} requests; ${gc(stall.sliced.probeGc)} over its whole run)`)
  const m = stall.sliced.main
  const kinds = Object.entries(m.gcOver1ms).map(([kind, k]) => `${kind} ${k.count} (${k.ms.toFixed(0)} ms)`).join(', ') || 'none'
  console.log(`  main thread during sliced ingest: ${m.gcCount} GC pauses, ${m.gcTotalMs.toFixed(0)} ms in all, longest ${ms(m.gcMaxMs)}; pauses >= 1 ms: ${kinds}; event-loop delay p99 ${ms(m.loopP99Ms)}, max ${ms(m.loopMaxMs)}; on a core ${m.ranMs.toFixed(0)} ms, waiting for one ${m.waitedMs.toFixed(0)} ms`)
  console.log(`host lookup p50/p99 beside a busy thread at the workers' priority, no ingest: ${ms(stall.busyCore.p50)} / ${ms(stall.busyCore.p99)} (${stall.busyCore.n} requests; ratio ${(stall.busyCore.p99 / stall.idle.p99).toFixed(2)} vs idle p99; the sliced ingest's p99 is ${(stall.sliced.p99 / stall.busyCore.p99).toFixed(2)}x this)`)
  console.log(`host lookup p50/p99 during one-piece ingest: ${ms(stall.onePiece.p50)} / ${ms(stall.onePiece.p99)} (${stall.onePiece.n} requests)`)
  report(`lookup p99 during 16 MiB ingest, ${storeName}`, stall.sliced.p99, 'ms', { value: stall.sliced.p99 / stall.idle.p99, baseline: 'idle p99', target: '<= 3' })
}
