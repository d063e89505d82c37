/**
 * The ceilings the whole-process benches measure against, as ES module source to write to a
 * file and run with plain node: one thread reading and parsing a JSON Lines file, and two
 * threads sharing the same blocks (jobs.bench.ts, issue-table.ts).
 */

// The bare parse: 1 MiB reads, lines cut on bytes, each decoded and parsed; nothing else.
export const BARE_PARSE = `import { createReadStream } from 'node:fs'
let carry = Buffer.alloc(0), n = 0
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk
  let start = 0
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) {
    if (nl > start) { JSON.parse(buf.toString('utf8', start, nl)); n++ }
    start = nl + 1
  }
  carry = buf.subarray(start)
}
if (carry.length) { JSON.parse(carry.toString('utf8')); n++ }
if (n < 0) console.log(n)
`

// The ceiling of two threads: the same blocks (1 MiB reads cut at their last line end), each
// parsed here or moved to a worker kept two blocks deep, as --jobs 2 shares its work.
export const BARE_PARSE_2 = `import { Worker } from 'node:worker_threads'
import { createReadStream } from 'node:fs'
const WORKER = \`const { parentPort } = require('node:worker_threads')
const parse = (buf) => { let n = 0, start = 0
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) { if (nl > start) { JSON.parse(buf.toString('utf8', start, nl)); n++ } start = nl + 1 }
  if (start < buf.length) { JSON.parse(buf.toString('utf8', start)); n++ }
  return n }
parentPort.on('message', (ab) => parentPort.postMessage(parse(Buffer.from(ab))))\`
const worker = new Worker(WORKER, { eval: true })
let pending = 0, n = 0, drained
worker.on('message', (k) => { n += k; if (--pending === 0 && drained) drained() })
const parse = (buf) => { let k = 0, start = 0
  for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, start)) { if (nl > start) { JSON.parse(buf.toString('utf8', start, nl)); k++ } start = nl + 1 }
  if (start < buf.length) { JSON.parse(buf.toString('utf8', start)); k++ }
  return k }
const hand = (block) => {
  if (pending >= 2) { n += parse(block); return }
  const own = block.byteOffset === 0 && block.buffer.byteLength === block.length ? block : Buffer.from(block)
  pending++
  worker.postMessage(own.buffer, [own.buffer])
}
let carry = Buffer.alloc(0)
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const last = chunk.lastIndexOf(10)
  if (last === -1) { carry = Buffer.concat([carry, chunk]); continue }
  hand(carry.length ? Buffer.concat([carry, chunk.subarray(0, last + 1)]) : chunk.subarray(0, last + 1))
  carry = Buffer.from(chunk.subarray(last + 1))
  await new Promise((resolve) => setImmediate(resolve))
}
if (carry.length) n += parse(carry)
if (pending > 0) await new Promise((resolve) => (drained = resolve))
await worker.terminate()
if (n < 0) console.log(n)
`
