/**
 * The shared driver of the gzip converter benches (Shodan, Censys): a generated input written
 * gzip-compressed (as `shodan download` writes it), converted through the same gunzip stream
 * every command reads with, against a baseline measured in the same process on the same
 * file: gunzip + readLines + JSON.parse and nothing else.
 *
 * Three processes, as in convert-httpx.bench.ts: one writes the input, one measures (the
 * bench file compiled to plain JavaScript, so no loader's memory is counted), one drives.
 */
import { spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGzip } from 'node:zlib'
import type { Converter } from '../../src/convert/types.js'
import { isProblem } from '../../src/convert/types.js'
import { CHUNK_BYTES, gunzipStream, readLines } from '../../src/jsonl/index.js'
import { serializeEvent } from '../../src/normalize/index.js'
import { cpuSecondsSince, mb, peakRssMb, report } from './measure.js'

export interface GzipBench {
  /** Format name, for the report lines. */
  name: string
  converter: Converter
  /** The i-th record, one JSON line without its newline. */
  record(i: number): string
  /** The bench file's `import.meta.url`. */
  self: string
}

/** Hex that does not repeat from record to record, so a file compresses about as real data does. */
export function noise(seed: number, length: number): string {
  let x = (seed * 2654435761) >>> 0 || 1
  let out = ''
  while (out.length < length) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out += (x >>> 0).toString(16).padStart(8, '0')
  }
  return out.slice(0, length)
}

/** Uncompressed megabytes to generate (L9KIT_BENCH_MB, default 100). */
const targetMb = Number(process.env.L9KIT_BENCH_MB ?? 100)

/** Entry point of a bench file: generate, measure or drive, by its first argument. */
export async function gzipBench(bench: GzipBench): Promise<void> {
  if (process.argv[2] === 'generate') console.log(await generate(bench, process.argv[3]!))
  else if (process.argv[2] === 'measure') await measure(bench, process.argv[3]!)
  else await drive(bench)
}

async function generate(bench: GzipBench, file: string): Promise<string> {
  const gzip = createGzip({ level: 6 })
  const out = gzip.pipe(createWriteStream(file))
  const target = targetMb * 1024 * 1024
  let bytes = 0
  let count = 0
  while (bytes < target) {
    const batch: string[] = []
    for (let k = 0; k < 500; k++) batch.push(bench.record(count++))
    const text = `${batch.join('\n')}\n`
    bytes += Buffer.byteLength(text)
    if (!gzip.write(text)) await new Promise<void>((resolve) => gzip.once('drain', () => resolve()))
  }
  gzip.end()
  await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject))
  return `${count} ${bytes}`
}

const gunzipped = (file: string) => gunzipStream(createReadStream(file, { highWaterMark: CHUNK_BYTES }), file)

async function baseline(file: string): Promise<number> {
  const start = process.hrtime.bigint()
  let sink = 0
  for await (const l of readLines(gunzipped(file))) if (!('error' in l)) sink += Object.keys(JSON.parse(l.text) as object).length
  if (sink < 0) console.log(sink)
  return Number(process.hrtime.bigint() - start) / 1e9
}

async function convert(bench: GzipBench, file: string) {
  const start = process.hrtime.bigint()
  let events = 0
  let problems = 0
  const ctx = { runStart: '2024-09-23T12:00:00Z', fingerprint: 1 as const, maxLineBytes: 64 * 1024 * 1024 }
  for await (const item of bench.converter.convert(gunzipped(file), ctx)) {
    if (isProblem(item)) {
      if (problems++ === 0) console.log(`first problem: ${item.where}: ${item.reason}`)
    } else {
      events++
      serializeEvent(item)
    }
  }
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, events, problems }
}

async function measure(bench: GzipBench, file: string): Promise<void> {
  const size = Number(process.env.L9KIT_BENCH_PLAIN_BYTES)
  const cpu0 = process.cpuUsage()
  const parseSeconds = await baseline(file)
  const parseCpu = cpuSecondsSince(cpu0)
  const cpu1 = process.cpuUsage()
  const result = await convert(bench, file)
  const convertCpu = cpuSecondsSince(cpu1)
  if (result.problems !== 0) throw new Error(`${result.problems} problems`)
  const base = 'gunzip + readLines + JSON.parse'
  report(base, mb(size) / parseSeconds, 'MB/s (uncompressed)')
  report(`${bench.name} convert (gunzip, map, normalise, fingerprint v1, serialise)`, mb(size) / result.seconds, 'MB/s (uncompressed)', { value: parseSeconds / result.seconds, baseline: base, target: '>= 0.30' })
  report(`${bench.name} convert`, result.events / result.seconds, 'events/s')
  report(`${bench.name} convert, CPU time`, mb(size) / convertCpu, 'MB/s', { value: parseCpu / convertCpu, baseline: `${base}, CPU time`, target: '>= 0.30' })
  report('peak RSS', peakRssMb(), 'MB', { value: peakRssMb() / 200, baseline: 'limit 200 MB', target: '< 1' })
}

/** The bench file as one plain-JavaScript module in `dir` (no loader at run time). */
async function compiled(self: string, dir: string): Promise<string> {
  const { build } = await import('tsup')
  await build({ entry: { bench: self }, outDir: dir, format: ['esm'], platform: 'node', target: 'node20', config: false, silent: true, dts: false, splitting: false, sourcemap: false, noExternal: [/^(?!tsup$)/], external: ['tsup'] })
  return join(dir, 'bench.js')
}

async function drive(bench: GzipBench): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `l9kit-bench-${bench.name}-`))
  const file = join(dir, `${bench.name}.json.gz`)
  const self = fileURLToPath(bench.self)
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, self, 'generate', file], { stdio: ['ignore', 'pipe', 'inherit'] })
    if (child.status !== 0) throw new Error(`generating the input failed (exit ${child.status})`)
    const [count, plain] = child.stdout.toString().trim().split(' ').map(Number) as [number, number]
    const size = statSync(file).size
    console.log(`convert-${bench.name}: ${count} records, ${mb(plain).toFixed(1)} MB as JSON Lines, ${mb(size).toFixed(1)} MB gzip-compressed, mean ${(plain / count).toFixed(0)} bytes/record`)
    const script = await compiled(self, join(dir, 'js'))
    const measured = spawnSync(process.execPath, [script, 'measure', file], { stdio: 'inherit', env: { ...process.env, L9KIT_BENCH_PLAIN_BYTES: String(plain) } })
    if (measured.status !== 0) throw new Error(`measuring failed (exit ${measured.status})`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
