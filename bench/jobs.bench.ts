/**
 * Whole-process throughput on a large JSON Lines file (issue 11), every ratio against a
 * baseline measured in the same run:
 * - `validate` and `normalize` with `--jobs 1` against a bare parse process (the same file
 *   read in 1 MiB chunks, split into lines, each line JSON.parse'd; targets ≥ 0.80 and ≥ 0.50);
 * - `--jobs 2` against `--jobs 1` (target ≥ 1.6) and against the bare parse (target > 1.3);
 * - `--jobs 2` as a share of the machine's ceiling for that work: a bare two-thread parse (the
 *   main thread reads blocks of whole lines and parses them, one worker thread started with
 *   the process parses the blocks it is handed; no validation, no output). Target ≥ 0.85.
 * validate reads canonical events; normalize reads what tools emit (numbers as such, nulls),
 * so that it really rewrites. The CLI is built into a temp folder (bench/support/cli.ts).
 * Size: L9KIT_BENCH_MB (default 100); rounds: L9KIT_BENCH_ROUNDS (default 3), interleaved,
 * best of each. Parallel ratios need idle cores: the load average is printed beside them.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchEvent } from './support/events.js'
import { bestTimes, buildCli } from './support/cli.js'
import { mb, report } from './support/measure.js'

const targetMb = Number(process.env.L9KIT_BENCH_MB ?? 100)
const rounds = Number(process.env.L9KIT_BENCH_ROUNDS ?? 3)

/** Writes lines made by `line(i)` until the file holds `targetMb`. */
function writeLines(path: string, line: (i: number) => string): void {
  const fd = openSync(path, 'w')
  let bytes = 0
  for (let i = 0; bytes < targetMb * 1024 * 1024; ) {
    const batch: string[] = []
    for (let k = 0; k < 1000; k++) batch.push(line(i++))
    const text = `${batch.join('\n')}\n`
    bytes += Buffer.byteLength(text)
    writeSync(fd, text)
  }
  closeSync(fd)
}

/** What a tool writes for a benchmark event: numbers as numbers, nulls for empty lists. */
function lenient(i: number): string {
  const e = benchEvent(i)
  return JSON.stringify({ ...e, port: Number(e.port), tags: e.tags.length ? e.tags : null, http: { ...e.http, status: String(e.http.status) } })
}

// The bare parse: 1 MiB reads, lines cut on bytes, each decoded and parsed; nothing else.
const BARE_PARSE = `import { createReadStream } from 'node:fs'
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
const BARE_PARSE_2 = `import { Worker } from 'node:worker_threads'
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

const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-jobs-'))
try {
  const { cli } = await buildCli(join(dir, 'dist'))
  const canonical = join(dir, 'canonical.jsonl')
  const tools = join(dir, 'tools.jsonl')
  writeLines(canonical, (i) => JSON.stringify(benchEvent(i)))
  writeLines(tools, lenient)
  const parser = join(dir, 'parse.mjs')
  writeFileSync(parser, BARE_PARSE)
  const parser2 = join(dir, 'parse2.mjs')
  writeFileSync(parser2, BARE_PARSE_2)
  console.log(`jobs: ${mb(statSync(canonical).size).toFixed(0)} MB canonical, ${mb(statSync(tools).size).toFixed(0)} MB tool output; ${availableParallelism()} cores; best of ${rounds}`)
  const runs: [string, string[]][] = [
    ['bare parse (canonical)', [parser, canonical]],
    ['validate --jobs 1', [cli, 'validate', '--jobs', '1', canonical]],
    ['validate --jobs 2', [cli, 'validate', '--jobs', '2', canonical]],
    ['bare parse (tool output)', [parser, tools]],
    ['normalize --jobs 1', [cli, 'normalize', '--no-warnings', '--jobs', '1', tools]],
    ['normalize --jobs 2', [cli, 'normalize', '--no-warnings', '--jobs', '2', tools]],
    ['bare two-thread parse (canonical)', [parser2, canonical]],
    ['bare two-thread parse (tool output)', [parser2, tools]],
  ]
  const before = loadavg()[0]!
  const ms = bestTimes(runs.map(([, args]) => args), rounds)
  const after = loadavg()[0]!
  const size = [canonical, canonical, canonical, tools, tools, tools, canonical, tools].map((f) => mb(statSync(f).size))
  const rate = (i: number) => size[i]! / (ms[i]! / 1000)
  report(runs[0]![0], rate(0), 'MB/s')
  report(runs[6]![0], rate(6), 'MB/s', { value: ms[0]! / ms[6]!, baseline: 'bare parse' })
  report(runs[1]![0], rate(1), 'MB/s', { value: ms[0]! / ms[1]!, baseline: 'bare parse', target: '>= 0.80' })
  report(runs[2]![0], rate(2), 'MB/s', { value: ms[1]! / ms[2]!, baseline: 'validate --jobs 1', target: '>= 1.6' })
  report(`${runs[2]![0]} `, rate(2), 'MB/s', { value: ms[0]! / ms[2]!, baseline: 'bare parse', target: '> 1.3' })
  report(`${runs[2]![0]}  `, rate(2), 'MB/s', { value: ms[6]! / ms[2]!, baseline: 'bare two-thread parse', target: '>= 0.85' })
  report(runs[3]![0], rate(3), 'MB/s')
  report(runs[7]![0], rate(7), 'MB/s', { value: ms[3]! / ms[7]!, baseline: 'bare parse' })
  report(runs[4]![0], rate(4), 'MB/s', { value: ms[3]! / ms[4]!, baseline: 'bare parse', target: '>= 0.50' })
  report(runs[5]![0], rate(5), 'MB/s', { value: ms[4]! / ms[5]!, baseline: 'normalize --jobs 1', target: '>= 1.6' })
  report(`${runs[5]![0]} `, rate(5), 'MB/s', { value: ms[3]! / ms[5]!, baseline: 'bare parse', target: '> 1.3' })
  report(`${runs[5]![0]}  `, rate(5), 'MB/s', { value: ms[7]! / ms[5]!, baseline: 'bare two-thread parse', target: '>= 0.85' })
  console.log(`load average (1 min) before/after: ${before.toFixed(1)} / ${after.toFixed(1)} on ${availableParallelism()} cores`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
