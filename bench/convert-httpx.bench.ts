/**
 * httpx JSON Lines → event documents: throughput (MB/s of input) and peak RSS, on a generated
 * file (default ~100 MB; L9KIT_BENCH_MB=500 for the issue's size). Baseline in the same run:
 * reading the same file line by line with JSON.parse and nothing else.
 *
 * Three processes, so that only the conversion's memory is counted: one writes the input
 * (`generate FILE`), one measures (`measure FILE`) from this file compiled to plain JavaScript
 * with tsup (as the published CLI runs; the tsx loader alone adds ~70 MB of RSS), and this one
 * drives them.
 */
import { spawnSync } from 'node:child_process'
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { httpx } from '../src/convert/httpx/index.js'
import { isProblem } from '../src/convert/types.js'
import { readLines } from '../src/jsonl/index.js'
import { serializeEvent } from '../src/normalize/index.js'
import { cpuSecondsSince, mb, peakRssMb, report } from './support/measure.js'

const targetMb = Number(process.env.L9KIT_BENCH_MB ?? 100)

const SERVERS = ['nginx/1.24.0', 'Apache/2.4.58 (Debian)', 'Microsoft-IIS/10.0', 'cloudflare', 'openresty/1.21.4.3']
const TITLES = ['Welcome to nginx!', 'Index of /', 'Kibana', 'Grafana', 'Login', '']
const TECH = [['Nginx:1.24.0', 'HSTS'], ['Apache HTTP Server:2.4.58', 'Debian', 'PHP:8.2.7'], ['IIS:10.0', 'Microsoft ASP.NET'], ['Cloudflare', 'HTTP/3'], []]

/** The i-th generated httpx record (v1.7.3+ shape, half of them HTTPS with TLS data). */
function record(i: number): string {
  const tls = i % 2 === 0
  const v6 = i % 11 === 0
  const ip = v6 ? `2001:db8:${(i % 65535).toString(16)}::${(i % 4093).toString(16)}` : `198.51.${(i >> 8) & 255}.${i & 255}`
  const host = `h${i % 50_000}.example${i % 97}.com`
  const port = tls ? (i % 3 ? '443' : '8443') : i % 3 ? '80' : '8080'
  const scheme = tls ? 'https' : 'http'
  const server = SERVERS[i % SERVERS.length]!
  const nanos = String(1 + (i % 999_999_999)).padStart(9, '0')
  const r: Record<string, unknown> = {
    timestamp: `2024-09-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:03:07.${nanos}+02:00`,
    port,
    url: `${scheme}://${host}${port === '443' || port === '80' ? '' : `:${port}`}`,
    input: host,
    title: TITLES[i % TITLES.length],
    scheme,
    webserver: server,
    content_type: 'text/html',
    method: 'GET',
    host,
    host_ip: ip,
    path: i % 4 ? '/' : '/admin/login',
    time: `${(i % 900) + 20}.5ms`,
    a: v6 ? [] : [ip],
    tech: TECH[i % TECH.length],
    words: 100 + (i % 900),
    lines: 10 + (i % 90),
    status_code: [200, 301, 403, 404][i % 4],
    content_length: 500 + (i % 20_000),
    failed: false,
    header: {
      server,
      content_type: 'text/html; charset=utf-8',
      date: 'Mon, 23 Sep 2024 12:03:07 GMT',
      cache_control: 'no-cache',
      x_frame_options: 'SAMEORIGIN',
      set_cookie: `sid=${i.toString(36)}; Path=/; HttpOnly`,
    },
    resolvers: ['1.1.1.1:53', '8.8.8.8:53'],
    knowledgebase: { PageType: 'other', pHash: 0 },
  }
  if (tls) {
    r.jarm_hash = '29d29d00029d29d00041d41d0000001d5b5b42e7b5b5b5b5b5b5b5b5b5b5b5'
    r.tls = {
      host,
      port,
      probe_status: true,
      tls_version: i % 4 ? 'tls13' : 'tls12',
      cipher: 'TLS_AES_128_GCM_SHA256',
      not_before: '2024-07-01T00:00:00Z',
      not_after: '2024-09-29T23:59:59Z',
      subject_dn: `CN=${host}`,
      subject_cn: host,
      subject_an: [host, `*.example${i % 97}.com`],
      issuer_dn: "CN=R3, O=Let's Encrypt, C=US",
      issuer_cn: 'R3',
      issuer_org: ["Let's Encrypt"],
      fingerprint_hash: { md5: 'c8d9b3c9b2e5a3f0b6e4d7c1a2f3e4d5', sha1: '4da25a6d5ef62c5f95c7bd0a73ea3c177b36999d', sha256: (i * 2654435761).toString(16).padStart(16, '0').repeat(4).slice(0, 64) },
      tls_connection: 'ctls',
      sni: host,
    }
  }
  return JSON.stringify(r)
}

async function generate(file: string): Promise<number> {
  const out = createWriteStream(file)
  const target = targetMb * 1024 * 1024
  let bytes = 0
  let count = 0
  while (bytes < target) {
    const batch: string[] = []
    for (let k = 0; k < 1000; k++) batch.push(record(count++))
    const text = `${batch.join('\n')}\n`
    bytes += Buffer.byteLength(text)
    if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return count
}

async function baseline(file: string): Promise<number> {
  const start = process.hrtime.bigint()
  let sink = 0
  for await (const l of readLines(createReadStream(file, { highWaterMark: 1 << 20 }))) if (!('error' in l)) sink += (JSON.parse(l.text) as { port: string }).port.length
  if (sink < 0) console.log(sink)
  return Number(process.hrtime.bigint() - start) / 1e9
}

async function convert(file: string): Promise<{ seconds: number; events: number; problems: number; outBytes: number }> {
  const start = process.hrtime.bigint()
  let events = 0
  let problems = 0
  let outBytes = 0
  const ctx = { runStart: '2024-09-23T12:00:00Z', fingerprint: 1 as const, maxLineBytes: 64 * 1024 * 1024 }
  for await (const item of httpx.convert(createReadStream(file, { highWaterMark: 1 << 20 }), ctx)) {
    if (isProblem(item)) problems++
    else {
      events++
      outBytes += serializeEvent(item).length + 1
    }
  }
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, events, problems, outBytes }
}

async function measure(file: string): Promise<void> {
  const size = statSync(file).size
  const cpu0 = process.cpuUsage()
  const parseSeconds = await baseline(file)
  const parseCpu = cpuSecondsSince(cpu0)
  const cpu1 = process.cpuUsage()
  const result = await convert(file)
  const convertCpu = cpuSecondsSince(cpu1)
  if (result.problems !== 0) throw new Error(`${result.problems} problems`)
  report('readLines + JSON.parse', mb(size) / parseSeconds, 'MB/s')
  report('httpx convert (normalise, fingerprint v1, serialise)', mb(size) / result.seconds, 'MB/s', { value: parseSeconds / result.seconds, baseline: 'readLines + JSON.parse' })
  report('httpx convert', result.events / result.seconds, 'records/s')
  report('httpx convert, CPU time', mb(size) / convertCpu, 'MB/s', { value: parseCpu / convertCpu, baseline: 'readLines + JSON.parse, CPU time', target: '>= 0.30' })
  report('peak RSS', peakRssMb(), 'MB', { value: peakRssMb() / 200, baseline: 'limit 200 MB', target: '< 1' })
}

/** This file as one plain-JavaScript module in `dir` (no loader at run time). */
async function compiled(dir: string): Promise<string> {
  const self = fileURLToPath(import.meta.url)
  const { build } = await import('tsup')
  // Everything bundled (the output lives in a temp dir, outside node_modules' reach) but tsup itself.
  await build({ entry: { bench: self }, outDir: dir, format: ['esm'], platform: 'node', target: 'node20', config: false, silent: true, dts: false, splitting: false, sourcemap: false, noExternal: [/^(?!tsup$)/], external: ['tsup'] })
  return join(dir, 'bench.js')
}

async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-httpx-'))
  const file = join(dir, 'httpx.jsonl')
  const self = fileURLToPath(import.meta.url)
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, self, 'generate', file], { stdio: ['ignore', 'pipe', 'inherit'] })
    if (child.status !== 0) throw new Error(`generating the input failed (exit ${child.status})`)
    const count = Number(child.stdout.toString().trim())
    const size = statSync(file).size
    console.log(`convert-httpx: ${count} records, ${mb(size).toFixed(1)} MB, mean ${(size / count).toFixed(0)} bytes/record`)
    const script = await compiled(join(dir, 'js'))
    const measured = spawnSync(process.execPath, [script, 'measure', file], { stdio: 'inherit' })
    if (measured.status !== 0) throw new Error(`measuring failed (exit ${measured.status})`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'generate') console.log(await generate(process.argv[3]!))
else if (process.argv[2] === 'measure') await measure(process.argv[3]!)
else await run()
