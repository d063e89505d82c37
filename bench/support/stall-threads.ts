/**
 * The stall bench's load threads (ingest-stall.ts): a latency probe of four keep-alive sockets,
 * and a thread that only keeps a core busy, at the prepare workers' priority.
 */
import { Worker } from 'node:worker_threads'
import { DEFAULT_WORKER_PRIORITY, IDLE_FALLBACK_NICE } from '../../src/service/ingest/worker-priority.js'

// Each socket: one request in flight; records [absolute start ms, latency ms] per answer, as
// pairs in one preallocated Float64Array. (Kept as an array of small arrays, 100k samples
// filled this thread's old generation, and its own mark-compact pauses, up to 14 ms, were
// then timed as the service's latency.) Answers are read into one reused buffer per socket
// (net's onread) and their head is read as bytes, so an answer allocates nothing: with a new
// Buffer per read and a string per head, the probe ran about 50 scavenges a second, up to
// 6 ms each under load, and each one was timed into the four answers in flight. It also
// reports its own GC pauses.
const PROBE = `
const { connect } = require('node:net')
const { PerformanceObserver } = require('node:perf_hooks')
const { workerData, parentPort } = require('node:worker_threads')
const { port, target, connections, apiKey } = workerData
const request = Buffer.from('GET ' + target + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: application/json\\r\\n' + (apiKey ? 'api-key: ' + apiKey + '\\r\\n' : '') + '\\r\\n')
const HEAD_END = Buffer.from('\\r\\n\\r\\n')
const LENGTH = Buffer.from('\\r\\ncontent-length:')
const now = () => performance.timeOrigin + performance.now()
let samples = new Float64Array(1 << 20), n = 0
const record = (start, latency) => {
  if (n + 2 > samples.length) { const more = new Float64Array(samples.length * 2); more.set(samples); samples = more }
  samples[n++] = start
  samples[n++] = latency
}
const pauses = { count: 0, ms: 0, maxMs: 0 } // (not 'gc': with --expose-gc that name is taken)
const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) { pauses.count++; pauses.ms += e.duration; pauses.maxMs = Math.max(pauses.maxMs, e.duration) } })
observer.observe({ entryTypes: ['gc'] })
// Where the value of 'content-length:' starts in head[0, end), in any letter case; -1 if absent.
const lengthAt = (head, end) => {
  outer: for (let i = 0; i + LENGTH.length <= end; i++) {
    for (let j = 0; j < LENGTH.length; j++) if ((head[i + j] | (j > 1 ? 0x20 : 0)) !== LENGTH[j]) continue outer
    return i + LENGTH.length
  }
  return -1
}
let bad = 0, open = connections, stopped = false
parentPort.on('message', (message) => { if (message === 'stop') stopped = true })
for (let c = 0; c < connections; c++) {
  const held = Buffer.alloc(1 << 20) // the answer read so far
  let size = 0, sent = 0
  const send = () => { sent = now(); socket.write(request) }
  const read = (nread, buf) => {
    if (size + nread > held.length) { bad++; socket.destroy(); return }
    buf.copy(held, size, 0, nread)
    size += nread
    const end = held.indexOf(HEAD_END, 0)
    if (end === -1 || end + 4 > size) return // (past size the buffer holds an older answer)
    let at = lengthAt(held, end)
    if (at === -1) { bad++; socket.destroy(); return }
    while (held[at] === 0x20) at++
    let length = 0
    while (held[at] >= 0x30 && held[at] <= 0x39) length = length * 10 + held[at++] - 0x30
    const total = end + 4 + length
    if (size < total) return
    if (held[9] !== 0x32 || held[10] !== 0x30 || held[11] !== 0x30) bad++ // not '200'
    record(sent, now() - sent)
    held.copy(held, 0, total, size)
    size -= total
    if (!stopped) send()
    else socket.end()
  }
  const socket = connect({ port, host: '127.0.0.1', onread: { buffer: Buffer.alloc(64 * 1024), callback: read } })
  socket.on('connect', send)
  socket.on('close', () => { if (--open === 0) { observer.disconnect(); parentPort.postMessage({ samples: samples.subarray(0, n), bad, gc: pauses }); parentPort.close() } })
  socket.on('error', () => { bad++ })
}
`

// A thread at the prepare workers' priority (worker-priority.ts: by default Linux's idle class,
// set with chrt) that keeps a core busy for workerData.ms and does nothing else: lookups beside
// it show what sharing the machine with an ingest's worker costs by itself, without any of the
// ingest's work on the service's thread. (Plain JS for an eval worker: it repeats
// lowerOwnPriority's few lines rather than load the TypeScript.)
const SPINNER = `
const { workerData, parentPort } = require('node:worker_threads')
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
  const idle = workerData.priority === 'idle' && require('node:child_process').spawnSync('chrt', ['--idle', '--pid', '0', String(tid)]).status === 0
  if (!idle) require('node:os').setPriority(tid, workerData.priority === 'idle' ? ${IDLE_FALLBACK_NICE} : workerData.priority)
} catch {}
const end = performance.now() + workerData.ms
let turns = 0
while (performance.now() < end) turns++
parentPort.postMessage(turns)
`

/** Keeps one core busy for `ms` from a thread at the prepare workers' priority; resolves when done. */
export function spin(ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(SPINNER, { eval: true, workerData: { ms, priority: DEFAULT_WORKER_PRIORITY } })
    worker.once('message', () => resolve())
    worker.once('error', reject)
  })
}

/** The probe's GC pauses over its run (they delay its reading of answers too). */
export interface ProbeGc {
  count: number
  ms: number
  maxMs: number
}

/** What a probe saw: [start, latency] pairs, flat, and its own GC pauses. */
export interface Probed {
  samples: Float64Array
  gc: ProbeGc
}

/**
 * Four keep-alive sockets timing `GET target` one at a time (with `apiKey`, if given), from now
 * until stop() is called; stop() resolves with what was seen, and rejects on any answer but 200.
 */
export function probe(port: number, target: string, apiKey?: string): { stop(): Promise<Probed> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { port, target, connections: 4, apiKey } })
  const done = new Promise<Probed>((resolve, reject) => {
    worker.once('message', (r: Probed & { bad: number }) => (r.bad > 0 ? reject(new Error(`${r.bad} bad answers`)) : resolve(r)))
    worker.once('error', reject)
  })
  done.catch(() => undefined) // (reported by stop())
  return {
    stop() {
      worker.postMessage('stop')
      return done
    },
  }
}
