/**
 * Does a large ingest stall lookups? Host-lookup latency measured from a worker thread over
 * keep-alive sockets: while idle, during 16 MiB `POST /admin/events` of lenient documents (the
 * normalising path, processed in slices), and, for contrast, during the same kind of documents
 * ingested in one piece (one store.ingest call, the behaviour before issue 14); and, to show
 * what the machine alone costs, beside a thread that only keeps a core busy, at the prepare
 * workers' priority, for as long as an ingest took. Any store: the memory store by default, the
 * PostgreSQL store from bench/postgres.bench.ts. To explain itself it also prints what the
 * service's thread went through during the sliced ingests: its GC pauses, its event-loop delay,
 * and (Linux) how long it ran and how long it waited for a core.
 *
 * The sliced round is INGESTS ingests of 16 MiB each, one after another with a pause between,
 * and its p99 is taken over the lookups of all of them: one ingest gives about 5 000 lookups, so
 * its p99 rests on some 50 of them, a dozen pauses of the process that the machine's scheduler
 * decides as much as the service; one run's ratio swung from 1.0 to 6.9 on the same code.
 * Each ingest's own ratio is printed too. The idle baseline is likewise INGESTS windows, one
 * just before each ingest, so that it is measured on the same heap, code and machine as the
 * ingests (one window at the start read the process before its lookup path was warm).
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Worker } from 'node:worker_threads'
import { lowerHelperThreads, MemoryStore, parseConfig, startService, startSharedPreparePool, type Store } from '../../src/service/index.js'
import { benchEvent } from './events.js'
import { mb, report } from './measure.js'
import { type MainThreadLog, schedstat, since, watchMainThread } from './main-thread-watch.js'
import { probe, type ProbeGc, spin } from './stall-threads.js'

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN
}
const now = () => performance.timeOrigin + performance.now()
setFlagsFromString('--expose-gc')
/** A full collection of this thread's heap (V8's gc(), made available here rather than by a command-line flag). */
const collectGarbage = runInNewContext('gc') as () => void
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Lookups in a set of time windows: their p50 and p99, how many there were, and how many took over 3 × the idle p99. */
export interface Latency {
  p50: number
  p99: number
  n: number
  slow: number
}

export interface StallResult {
  /** Threads of this process put at the workers' priority, as serve does (helper-threads.ts). */
  helpersLowered: number
  bodyBytes: number
  documents: number
  /** The probe's own GC pauses over its whole run (they delay its reading of answers too). */
  probeGc: ProbeGc
  /** The idle windows before the ingests, together and each. */
  idle: Latency & { cpu: { ranMs: number; waitedMs: number }; each: Latency[] }
  /** All sliced ingests' lookups together, and each ingest's own p99 and time. */
  sliced: Latency & { ingestMs: number; each: (Latency & { ingestMs: number })[]; main: MainThreadLog }
  /** Lookups while a thread at the workers' priority only kept a core busy, for as long as an ingest took. */
  busyCore: Latency
  onePiece: Latency & { ingestMs: number }
}

/** Ingests of 16 MiB in the sliced round (see the top of this file). */
const INGESTS = 5
/** Idle window before each ingest: INGESTS of them make the idle baseline. */
const IDLE_MS = 500
/**
 * Pause between building a body (and collecting its garbage) and the idle window. With 300 ms,
 * the idle windows' p99 read 0.9–2.8 ms, against 0.4–0.5 ms with 1 s: the full collection's
 * concurrent sweeping and the uploading thread's start were still taking CPU.
 */
const SETTLE_MS = 1000

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

/**
 * Runs the rounds against a fresh service on 127.0.0.1 over `store` (empty; a memory store if
 * none). Like `l9kit serve` with ingest on, it lowers this process's helper threads, which
 * cannot be undone: the last measurement of a bench process.
 */
export async function measureIngestStall(baseEvents = 20_000, store: Store = new MemoryStore()): Promise<StallResult> {
  const token = 'bench-admin-token-0123456789'
  await store.ingest(Array.from({ length: baseEvents }, (_, i) => benchEvent(i)))
  // L9KIT_BENCH_INGEST_WORKERS=thread|process compares the two kinds of prepare worker (default: the service's).
  const kind = process.env.L9KIT_BENCH_INGEST_WORKERS
  const config = parseConfig(JSON.stringify({ admin_token: token, max_body_bytes: 64 << 20, plans: { anonymous: { rate: 1e9, burst: 1e9 } }, ...(kind ? { ingest_workers: kind } : {}) }), 'bench')
  // As `l9kit serve` does: the ingest workers start before the service listens (a process's
  // start forks this one, a stall that grows with the heap: prepare-pool.ts), and this
  // process's helper threads are lowered (for good: hence last in a bench process).
  startSharedPreparePool(config.ingestWorkerPriority, config.ingestWorkers)
  const helpersLowered = lowerHelperThreads(config.helperThreadPriority)
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  const clients: Awaited<ReturnType<typeof uploader>>[] = []
  const body = { bytes: 0, documents: 0 }
  const prober = probe(service.port, '/host/198.51.0.5')
  const windows = { idle: [] as Window[], sliced: [] as Window[], busy: [] as Window[], piece: [] as Window[] }
  try {
    await sleep(1000) // (the probe warms the lookup path up)
    const cpu = { ranMs: 0, waitedMs: 0 }
    const watch = watchMainThread()
    for (let i = 0; i < INGESTS; i++) {
      // Each body (new events, so every ingest stores as much) is built and handed to its
      // uploading thread between the measured windows; this thread keeps none of it and collects
      // its garbage then, so that neither the bodies nor the strings they were built from are
      // collected during a window.
      watch.pause()
      const built = encoded(lenientBody(16 << 20, 1_000_000 * (i + 1)))
      const client = await uploader(`${service.url}/admin/events`, token, built.body)
      clients.push(client)
      Object.assign(body, { bytes: built.body.length, documents: built.documents })
      collectGarbage()
      await sleep(SETTLE_MS)
      // The idle window, just before each ingest: the baseline shares the ingests' heap, code
      // and machine, not only those of the bench's start. (Nothing else watched in it.)
      const cpu0 = schedstat()
      windows.idle.push(await timed(() => sleep(IDLE_MS)))
      const idleCpu = since(cpu0)
      cpu.ranMs += idleCpu.ranMs
      cpu.waitedMs += idleCpu.waitedMs
      watch.resume()
      windows.sliced.push(await timed(() => client.post().then((status) => void (status !== 200 && fail(`ingest answered ${status}`)))))
    }
    const main = watch.stop()
    const ingestMs = mean(windows.sliced.map(([t0, t1]) => t1 - t0))

    await sleep(300)
    windows.busy.push(await timed(() => spin(ingestMs)))

    const piece = lenientBody(16 << 20, 9_000_000).docs.map((d) => JSON.parse(d) as unknown)
    await sleep(300)
    windows.piece.push(await timed(async () => void (await store.ingest(piece)))) // (synchronous in the memory store), as before slicing

    const { samples, gc } = await prober.stop()
    const idle = latency(samples, windows.idle, Infinity)
    const of = (w: Window[]) => latency(samples, w, 3 * idle.p99)
    return {
      helpersLowered,
      bodyBytes: body.bytes,
      documents: body.documents,
      probeGc: gc,
      idle: { ...of(windows.idle), cpu, each: windows.idle.map((w) => of([w])) },
      sliced: { ...of(windows.sliced), ingestMs, main, each: windows.sliced.map((w) => ({ ...of([w]), ingestMs: w[1] - w[0] })) },
      busyCore: of(windows.busy),
      onePiece: { ...of(windows.piece), ingestMs: windows.piece[0]![1] - windows.piece[0]![0] },
    }
  } finally {
    await prober.stop().catch(() => undefined)
    await Promise.all(clients.map((c) => c.close()))
    await service.close(100)
  }
}

/** [start, end] in the probe's clock (ms since the epoch). */
type Window = [number, number]

async function timed(work: () => Promise<unknown>): Promise<Window> {
  const t0 = now()
  await work()
  return [t0, now()]
}

/** The lookups that overlap any of `windows` (samples are [start, latency] pairs); `slow` counts those over `slowMs`. */
function latency(samples: Float64Array, windows: readonly Window[], slowMs: number): Latency {
  const inside: number[] = []
  for (let i = 0; i < samples.length; i += 2) {
    const start = samples[i]!
    const end = start + samples[i + 1]!
    if (windows.some(([from, to]) => end >= from && start <= to)) inside.push(samples[i + 1]!)
  }
  return { p50: percentile(inside, 50), p99: percentile(inside, 99), n: inside.length, slow: inside.filter((ms) => ms > slowMs).length }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length
const fail = (message: string): never => {
  throw new Error(message)
}

/** Prints a stall measurement, ending with its ratio to the idle p99 and the target. */
export function printStall(storeName: string, stall: StallResult): void {
  const ms = (x: number) => `${x.toFixed(2)} ms`
  const { sliced, idle } = stall
  console.log(`ingest stall, ${storeName}: ${INGESTS} ingests of ${mb(stall.bodyBytes).toFixed(1)} MiB, ${stall.documents} lenient documents each; an ingest took ${sliced.ingestMs.toFixed(0)} ms in slices (mean), ${stall.onePiece.ingestMs.toFixed(0)} ms in one piece; ${stall.helpersLowered} helper threads of this process lowered`)
  console.log(`host lookup p50/p99 idle: ${ms(idle.p50)} / ${ms(idle.p99)} (${idle.n} requests; main thread on a core ${idle.cpu.ranMs.toFixed(0)} ms, waiting for one ${idle.cpu.waitedMs.toFixed(0)} ms); the probe's own GC over its whole run: ${stall.probeGc.count} pauses, longest ${ms(stall.probeGc.maxMs)}`)
  console.log(`  each idle window's p99: ${idle.each.map((e) => ms(e.p99)).join(', ')}`)
  console.log(`host lookup p50/p99 during the sliced ingests: ${ms(sliced.p50)} / ${ms(sliced.p99)} (${sliced.n} requests)`)
  console.log(`  each ingest's p99 vs idle p99: ${sliced.each.map((e) => (e.p99 / idle.p99).toFixed(2)).join(', ')} (${sliced.each.map((e) => e.n).join(', ')} requests; ${sliced.each.map((e) => e.ingestMs.toFixed(0)).join(', ')} ms)`)
  // A slower ingest spreads the same pauses over more lookups: this count does not get better that way.
  console.log(`  lookups over 3 x idle p99 (${ms(3 * idle.p99)}): ${(sliced.slow / sliced.each.length).toFixed(0)} per ingest (${sliced.each.map((e) => e.slow).join(', ')}); idle: ${idle.slow} in ${idle.n}`)
  const m = sliced.main
  const kinds = Object.entries(m.gcOver1ms).map(([kind, k]) => `${kind} ${k.count} (${k.ms.toFixed(0)} ms)`).join(', ') || 'none'
  console.log(`  main thread during the sliced ingests: ${m.gcCount} GC pauses, ${m.gcTotalMs.toFixed(0)} ms in all, longest ${ms(m.gcMaxMs)}; pauses >= 1 ms: ${kinds}; event-loop delay p99 ${ms(m.loopP99Ms)}, max ${ms(m.loopMaxMs)}; on a core ${m.ranMs.toFixed(0)} ms, waiting for one ${m.waitedMs.toFixed(0)} ms`)
  console.log(`host lookup p50/p99 beside a busy thread at the workers' priority, no ingest: ${ms(stall.busyCore.p50)} / ${ms(stall.busyCore.p99)} (${stall.busyCore.n} requests; ratio ${(stall.busyCore.p99 / idle.p99).toFixed(2)} vs idle p99; the sliced ingests' p99 is ${(sliced.p99 / stall.busyCore.p99).toFixed(2)}x this)`)
  console.log(`host lookup p50/p99 during one-piece ingest: ${ms(stall.onePiece.p50)} / ${ms(stall.onePiece.p99)} (${stall.onePiece.n} requests)`)
  report(`lookup p99 during 16 MiB ingests, ${storeName}`, sliced.p99, 'ms', { value: sliced.p99 / idle.p99, baseline: 'idle p99', target: '<= 3' })
}
