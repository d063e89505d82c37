/**
 * Bulk export (issue 31), memory store over HTTP, read by curl (its own process) into /dev/null:
 * - throughput: GET /bulk/service?q=* and GET /bulk/search?q=* in events per second, against a
 *   bare node:http server in the same process writing the same events' stored bytes as JSON Lines
 *   from memory (64 KiB chunks, waiting for 'drain': the same writer discipline) (target ≥ 0.5);
 * - memory: the peak RSS growth of the service's process during each export (target ≤ 64 MB).
 * One export of each route first, outside the rounds: it warms the code, and the first
 * /bulk/search of more than one batch starts the export thread (aggregate/export-thread.ts),
 * a cost of the process, once, reported on its own line (run from source, the thread also
 * compiles TypeScript). Rounds alternate (baseline, export, …; best of each). Size: L9KIT_BENCH_BULK_EVENTS events
 * (default 1 000 000: 800 000 services, 200 000 leaks on 65 536 + IPv6 addresses).
 * L9KIT_BENCH_BULK_STORE=postgres runs it on a PostgreSQL store instead (a schema of its own in
 * L9KIT_BENCH_DATABASE_URL or L9KIT_TEST_DATABASE_URL, dropped afterwards).
 */
import { spawn } from 'node:child_process'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseQuery } from '../src/query/index.js'
import { MemoryStore, parseConfig, startService, type Store } from '../src/service/index.js'
import { connect, PostgresStore } from '../src/service/store/postgres/index.js'
import { benchEvent } from './support/events.js'
import { report } from './support/measure.js'

const EVENTS = Number(process.env.L9KIT_BENCH_BULK_EVENTS ?? 1_000_000)
const ROUNDS = Number(process.env.L9KIT_BENCH_BULK_ROUNDS ?? 2)
const KEY = 'bench-pro-key-0001'
const CHUNK = 64 * 1024

const PG_URL = process.env.L9KIT_BENCH_DATABASE_URL || process.env.L9KIT_TEST_DATABASE_URL || ''
const onPostgres = process.env.L9KIT_BENCH_BULK_STORE === 'postgres'
if (onPostgres && PG_URL === '') throw new Error('L9KIT_BENCH_BULK_STORE=postgres needs L9KIT_BENCH_DATABASE_URL or L9KIT_TEST_DATABASE_URL')
const SCHEMA = `bench_bulk_${process.pid}`
const store: Store = onPostgres ? await PostgresStore.open(PG_URL, { schema: SCHEMA, max: 4 }) : new MemoryStore()
for (let at = 0; at < EVENTS; at += 10_000) {
  const docs = []
  for (let i = at; i < Math.min(EVENTS, at + 10_000); i++) docs.push(benchEvent(i))
  const r = await store.ingest(docs)
  if (r.rejected.length > 0) throw new Error(JSON.stringify(r.rejected[0]))
}
if (store instanceof PostgresStore) {
  // As autovacuum would soon after a load: the planner's statistics of the new rows.
  const sql = connect(PG_URL, { schema: SCHEMA, max: 1 })
  await sql`ANALYZE events`
  await sql.end()
}
const config = parseConfig(JSON.stringify({ keys: [{ name: 'pro', key: KEY, plan: 'pro' }], plans: { pro: { rate: null } } }), 'bench')
const service = await startService({ store, config, host: '127.0.0.1', port: 0 })

/** The stored bytes of every event of a scope (views into the store's slabs: no copy). */
async function bytesOf(scope: 'service' | 'leak'): Promise<Buffer[]> {
  const out: Buffer[] = []
  for await (const b of store.searchAll(parseQuery('*', { scope }))) out.push(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
  return out
}
const held = { service: await bytesOf('service'), leak: await bytesOf('leak') }

/** The baseline: the same bytes as JSON Lines, written as the bulk routes write. */
const NEWLINE = Buffer.from('\n')
async function writeAll(res: ServerResponse, lines: Buffer[]): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' })
  let parts: Buffer[] = []
  let bytes = 0
  for (const line of lines) {
    parts.push(line, NEWLINE)
    bytes += line.length + 1
    if (bytes < CHUNK) continue
    const ok = res.write(Buffer.concat(parts, bytes))
    parts = []
    bytes = 0
    if (!ok) await new Promise((resolve) => res.once('drain', resolve))
  }
  res.end(Buffer.concat(parts, bytes))
}
const baseline = createServer((req, res) => void writeAll(res, req.url === '/leak' ? held.leak : held.service))
await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
const baseUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`

/** Downloads `url` with curl into /dev/null; seconds, bytes, and this process's peak RSS growth meanwhile (MB). */
async function download(url: string): Promise<{ seconds: number; bytes: number; rssGrowthMb: number }> {
  const before = process.memoryUsage().rss
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const started = process.hrtime.bigint()
  const curl = spawn('curl', ['-s', '-o', '/dev/null', '-w', '%{size_download} %{http_code}', '-H', `api-key: ${KEY}`, url], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  curl.stdout.on('data', (c: Buffer) => (out += c.toString()))
  await new Promise((resolve) => curl.on('close', resolve))
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  clearInterval(sampler)
  const [bytes, status] = out.split(' ')
  if (status !== '200') throw new Error(`${url} answered ${status}`)
  return { seconds, bytes: Number(bytes), rssGrowthMb: (peak - before) / (1024 * 1024) }
}

const routes = [
  { name: '/bulk/service?q=*', url: `${service.url}/bulk/service?q=*`, base: `${baseUrl}/service`, events: held.service.length },
  { name: '/bulk/search?q=* (aggregations)', url: `${service.url}/bulk/search?q=*`, base: `${baseUrl}/leak`, events: held.leak.length },
]
console.log(`bulk: ${EVENTS} events in the ${onPostgres ? 'PostgreSQL' : 'memory'} store (${held.service.length} services, ${held.leak.length} leaks), ${ROUNDS} rounds each, alternating; read by curl`)
for (const route of routes) {
  const first = await download(route.url)
  if (route.events > 0 && route.url.includes('/bulk/search')) report(`${route.name}: peak RSS growth of the first export (starts the export thread; not in the rounds)`, first.rssGrowthMb, 'MB')
}
for (const route of routes) {
  const base: number[] = []
  const bulk: number[] = []
  let growth = 0
  let bytes = 0
  for (let r = 0; r < ROUNDS; r++) {
    const b = await download(route.base)
    base.push(route.events / b.seconds)
    const x = await download(route.url)
    bulk.push(route.events / x.seconds)
    growth = Math.max(growth, x.rssGrowthMb)
    bytes = x.bytes
  }
  const best = (xs: number[]) => Math.max(...xs)
  report(`${route.name}: JSON Lines from memory (baseline)`, best(base), 'events/s')
  report(`${route.name}: export`, best(bulk), 'events/s', { value: best(bulk) / best(base), baseline: 'JSON Lines from memory', target: '>= 0.5' })
  report(`${route.name}: peak RSS growth of the service during the export (${(bytes / 1e6).toFixed(0)} MB sent)`, growth, 'MB', { value: growth / 64, baseline: '64 MB', target: '<= 1' })
}
await service.close(200)
baseline.close()
if (store instanceof PostgresStore) {
  await store.close()
  const sql = connect(PG_URL, { max: 1 })
  await sql`DROP SCHEMA IF EXISTS ${sql(SCHEMA)} CASCADE`
  await sql.end()
}
