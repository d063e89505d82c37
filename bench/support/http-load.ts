/**
 * A small HTTP/1.1 load generator in a worker thread (so it costs the measured server's thread
 * nothing when that server runs in the same process): keep-alive sockets on 127.0.0.1, one
 * request in flight per socket, paths taken in turn from a list; answers checked for status
 * 200; requests/second and latency percentiles.
 */
import { Worker } from 'node:worker_threads'

const LOADER = `
const { connect } = require('node:net')
const { workerData, parentPort } = require('node:worker_threads')
const { port, paths, connections, ms } = workerData
const requests = paths.map((p) => Buffer.from('GET ' + p + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: application/json\\r\\n\\r\\n'))
const latencies = []
let done = 0, bad = 0, open = connections, next = 0
const startedAt = performance.now()
const stopAt = startedAt + ms
for (let c = 0; c < connections; c++) {
  const socket = connect(port, '127.0.0.1')
  socket.setNoDelay(true)
  let buffer = Buffer.alloc(0)
  let sentAt = 0
  const send = () => { sentAt = performance.now(); socket.write(requests[next++ % requests.length]) }
  socket.on('connect', send)
  socket.on('data', (chunk) => {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk])
    const end = buffer.indexOf('\\r\\n\\r\\n')
    if (end === -1) return
    const head = buffer.toString('latin1', 0, end).toLowerCase()
    const at = head.indexOf('content-length:')
    const length = parseInt(head.slice(at + 15), 10)
    if (buffer.length < end + 4 + length) return
    const now = performance.now()
    if (head.slice(9, 12) !== '200') bad++
    done++
    latencies.push(now - sentAt)
    buffer = buffer.subarray(end + 4 + length)
    if (now < stopAt) send()
    else socket.end()
  })
  socket.on('close', () => {
    if (--open === 0) {
      latencies.sort((a, b) => a - b)
      const pct = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN
      parentPort.postMessage({ done, bad, ms: performance.now() - startedAt, p50: pct(0.5), p99: pct(0.99) })
    }
  })
  socket.on('error', () => { bad++ })
}
`

export interface LoadResult {
  /** Requests per second. */
  rate: number
  /** Latency percentiles, milliseconds. */
  p50: number
  p99: number
}

/** Loads `paths` on 127.0.0.1:`port` for `seconds` over `connections` sockets; rejects on any non-200 answer. */
export function httpLoad(port: number, paths: string[], seconds: number, connections = 16): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(LOADER, { eval: true, workerData: { port, paths, connections, ms: seconds * 1000 } })
    worker.once('message', (r: { done: number; bad: number; ms: number; p50: number; p99: number }) => {
      if (r.bad > 0) reject(new Error(`${r.bad} unexpected answers from port ${port}`))
      else resolve({ rate: (r.done / r.ms) * 1000, p50: r.p50, p99: r.p99 })
    })
    worker.once('error', reject)
  })
}
