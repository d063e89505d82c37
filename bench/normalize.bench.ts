/**
 * `l9kit normalize` throughput vs bare JSON.parse on the same lines, in the same run (issue 3),
 * and its peak memory. Normalising runs the real command (read file → canonical JSON Lines
 * written to a file) in a child process, so its timing and peak RSS are its own. The child
 * is this file bundled by tsup, run by plain node as the shipped `l9kit` is (falls back to
 * tsx, which adds ~35 MB of its own, when bundling fails). Ratios are given for wall time and
 * for CPU time: on a shared machine the CPU-time ratio is the one that stays put.
 *
 *   npx tsx bench/normalize.bench.ts                 100k events (~240 MB), well under 2 minutes
 *   L9KIT_BENCH_EVENTS=20000 npx tsx bench/normalize.bench.ts
 *   L9KIT_BENCH_GB=1 npx tsx bench/normalize.bench.ts  a ≥ 1 GB file, for the memory check
 */
import { spawnSync } from 'node:child_process'
import { closeSync, createWriteStream, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { normalize } from '../src/cli/commands/normalize.js'
import type { Event } from '../src/schema/index.js'
import { formatTime, parseTime } from '../src/time/index.js'
import { benchEvent } from './support/events.js'
import { bestOf, mb, report } from './support/measure.js'

interface ChildResult {
  /** Wall time. */
  ms: number
  /** CPU time (user + system): what the work costs, whatever else the machine is running. */
  cpuMs: number
  rssMb: number
  code: number
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** Child mode: normalise one file into another with the real command; print timing and peak RSS. */
async function child(input: string, output: string): Promise<void> {
  const stdout = createWriteStream(output)
  const start = process.hrtime.bigint()
  const cpuStart = cpuMs()
  const code = await normalize.run(['--no-warnings', input], {
    stdin: Readable.from([]),
    stdout,
    stderr: process.stderr,
    stderrIsTTY: false,
    env: process.env,
  })
  await new Promise<void>((resolve) => stdout.end(resolve))
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const result: ChildResult = { ms, cpuMs: cpuMs() - cpuStart, rssMb: process.resourceUsage().maxRSS / 1024, code }
  console.log(JSON.stringify(result))
}

const TOOL_ORDER = ['server', 'content-type', 'date', 'cache-control', 'x-frame-options']

/** What a real tool writes for the same event: numbers as such, an offset, nulls, mixed-case names. */
function lenientLine(event: Event, i: number): string {
  const shifted = parseTime(event.time)
  const local = shifted.ok ? formatTime(shifted.value + 7_200_000_000_000n).replace(/Z$/, '+02:00') : event.time
  // In a server's order (not sorted), names capitalised: normalising sorts them.
  const header: Record<string, string> = {}
  for (const name of TOOL_ORDER) header[name.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase())] = event.http.header[name]!
  return JSON.stringify({
    ...event,
    port: Number(event.port),
    time: local,
    event_pipeline: i % 2 ? null : event.event_pipeline,
    tags: event.tags.length === 0 ? null : event.tags,
    http: { ...event.http, header, status: String(event.http.status) },
    network: { ...event.network, asn: String(event.network.asn) },
    geoip: { ...event.geoip, location: { lat: String(event.geoip.location.lat), lon: String(event.geoip.location.lon) } },
  })
}

/** Writes events to a JSON Lines file in large batches; returns its size. */
function writeFile(path: string, count: number, line: (i: number) => string, untilBytes = 0): { bytes: number; count: number } {
  const fd = openSync(path, 'w')
  let bytes = 0
  let n = 0
  let batch: string[] = []
  while (n < count || bytes < untilBytes) {
    const text = line(n++)
    batch.push(text)
    bytes += Buffer.byteLength(text) + 1
    if (batch.length === 1000) {
      writeSync(fd, batch.join('\n') + '\n')
      batch = []
    }
  }
  if (batch.length > 0) writeSync(fd, batch.join('\n') + '\n')
  closeSync(fd)
  return { bytes, count: n }
}

/** This file bundled for plain node (as dist/ is), or undefined when bundling fails. */
async function bundle(dir: string): Promise<string | undefined> {
  try {
    // A computed specifier keeps tsup itself out of the bundle.
    const bundler = 'tsup'
    const { build } = (await import(bundler)) as typeof import('tsup')
    const outDir = join(dir, 'child')
    await build({ entry: { child: fileURLToPath(import.meta.url) }, outDir, format: ['esm'], platform: 'node', target: 'node20', silent: true, config: false, dts: false, splitting: false, noExternal: [/./] })
    return join(outDir, 'child.js')
  } catch (error) {
    console.log(`(bundling failed, running the child under tsx: ${(error as Error).message.split('\n')[0]})`)
    return undefined
  }
}

function runChild(script: string | undefined, input: string, output: string): ChildResult {
  const args = script ? [script] : ['--import', 'tsx', fileURLToPath(import.meta.url)]
  const result = spawnSync(process.execPath, args, {
    env: { ...process.env, L9KIT_BENCH_CHILD: JSON.stringify({ input, output }) },
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  })
  if (result.status !== 0) throw new Error(`normalize child failed: ${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as ChildResult
}

/** Bare JSON.parse over the first `count` lines (held in memory): MB/s of wall and of CPU time, best of 3. */
function parseRate(line: (i: number) => string, count: number): { wall: number; cpu: number } {
  const lines = Array.from({ length: count }, (_, i) => line(i))
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0)
  let sink = 0
  let cpuBest = Infinity
  const ms = bestOf(3, () => {
    const start = cpuMs()
    for (const l of lines) sink += (JSON.parse(l) as { port: unknown }) === null ? 1 : 0
    cpuBest = Math.min(cpuBest, cpuMs() - start)
  })
  if (sink < 0) console.log(sink)
  return { wall: mb(bytes) / (ms / 1000), cpu: mb(bytes) / (cpuBest / 1000) }
}

/** Result lines of one normalise run against the parse rates of the same lines. */
function reportRun(name: string, bytes: number, run: ChildResult, parse: { wall: number; cpu: number }, target?: string): void {
  const wall = mb(bytes) / (run.ms / 1000)
  const cpu = mb(bytes) / (run.cpuMs / 1000)
  report(`${name}, wall time`, wall, 'MB/s', { value: wall / parse.wall, baseline: 'JSON.parse wall', ...(target ? { target } : {}) })
  report(`${name}, CPU time`, cpu, 'MB/s', { value: cpu / parse.cpu, baseline: 'JSON.parse CPU', ...(target ? { target } : {}) })
}

async function run(): Promise<void> {
  const gb = process.env.L9KIT_BENCH_GB === '1'
  const count = Number(process.env.L9KIT_BENCH_EVENTS ?? 100_000)
  const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-normalize-'))
  try {
    const canonical = (i: number) => JSON.stringify(benchEvent(i))
    const lenient = (i: number) => lenientLine(benchEvent(i), i)
    const input = join(dir, 'canonical.jsonl')
    const written = writeFile(input, count, canonical, gb ? 1024 ** 3 : 0)
    console.log(`normalize: ${written.count} canonical events, ${mb(written.bytes).toFixed(0)} MB, mean ${(written.bytes / written.count).toFixed(0)} bytes/event`)

    const baselineCount = Math.min(written.count, 100_000)
    const parse = parseRate(canonical, baselineCount)
    report('JSON.parse (same lines, in memory), wall time', parse.wall, 'MB/s')
    report('JSON.parse (same lines, in memory), CPU time', parse.cpu, 'MB/s')

    const output = join(dir, 'out.jsonl')
    const script = await bundle(dir)
    const fast = runChild(script, input, output)
    if (statSync(output).size !== written.bytes) throw new Error('canonical input did not come out byte-identical')
    reportRun('normalize canonical input, file → file', written.bytes, fast, parse, '>= 0.45')
    report('normalize peak RSS', fast.rssMb, 'MB', { value: fast.rssMb / 150, baseline: '150 MB limit', target: '< 1' })

    const lenientCount = Math.min(count, 20_000)
    const lenientInput = join(dir, 'lenient.jsonl')
    const lenientWritten = writeFile(lenientInput, lenientCount, lenient)
    const slow = runChild(script, lenientInput, output)
    reportRun('normalize lenient input (every record rewritten)', lenientWritten.bytes, slow, parseRate(lenient, lenientCount))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const childArgs = process.env.L9KIT_BENCH_CHILD
if (childArgs) {
  const { input, output } = JSON.parse(childArgs) as { input: string; output: string }
  await child(input, output)
} else {
  await run()
}
