/**
 * PostgreSQL store (issue 10), every figure beside a baseline measured in the same run:
 * - driver: COPY vs one INSERT … SELECT unnest(…) per 1 000 rows vs one INSERT per row, and
 *   lookups read as raw bytes vs parsed rows (why the store uses what it uses);
 * - ingest: events/s through PostgresStore (JSON Lines → prepare → COPY into staging →
 *   INSERT … ON CONFLICT) vs a bare COPY of the same rows into a table like `events` (target ≥ 0.5);
 * - lookups at growing sizes: host and domain p50/p99 and req/s over HTTP; host p50 at the
 *   largest size vs the smallest (target ≤ 1.5×); PostgreSQL-store vs memory-store host req/s
 *   on the same data (target ≥ 0.3); `serve --workers 2` vs `--workers 1` (target ≥ 1.6×);
 * - lookup p99 during a 16 MiB ingest vs idle p99, as bench/service.bench.ts measures it for the
 *   memory store (target ≤ 3×).
 * Each answer has the same size at every store size (one event per IP, ten per domain), so
 * only the store's growth changes between sizes.
 * Database: L9KIT_BENCH_DATABASE_URL or L9KIT_TEST_DATABASE_URL, else a throwaway cluster
 * made with scripts/pg-cluster.sh. Sizes: L9KIT_BENCH_PG_SIZES (default 10000,100000,1000000);
 * L9KIT_BENCH_SECONDS per HTTP round (default 2, best of 3 rounds).
 */
import { spawn } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ingestStream, JsonText, MemoryStore, packageRoot, parseConfig, prepare, type Prepared, startService, type Store } from '../src/service/index.js'
import { connect, PostgresStore } from '../src/service/store/postgres/index.js'
import { foldBatch, type StagedRow } from '../src/service/store/postgres/rows.js'
import { reverseLabels } from '../src/service/index.js'
import { benchDatabase } from './support/database.js'
import { httpLoad, type LoadResult } from './support/http-load.js'
import { measureIngestStall, printStall } from './support/ingest-stall.js'
import { ipOf, line, lines } from './support/indexed-events.js'
import { report } from './support/measure.js'

const sizes = (process.env.L9KIT_BENCH_PG_SIZES ?? '10000,100000,1000000').split(',').map(Number).sort((a, b) => a - b)
const seconds = Number(process.env.L9KIT_BENCH_SECONDS ?? 2)
const rounds = 3
const root = packageRoot()
const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-pg-'))

// The database: given, or a throwaway cluster stopped at the end.
const database = benchDatabase()
const url = database.url
const schemas: string[] = []
const schemaName = (name: string) => {
  const s = `bench_${name}_${process.pid}`
  schemas.push(s)
  return s
}

/** A folded row as a line of COPY text for the events columns (the bare COPY's input). */
function textLine(row: StagedRow): string {
  const p = row.kept
  const text = (t: string) => t.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
  const identity = Buffer.from(row.identity, 'latin1').toString('hex')
  return [`\\\\x${identity}`, text(p.json), p.leak ? 'leak' : 'service', p.leak ? text(p.severity) : '', p.ip || '\\N', p.name ? reverseLabels(p.name) : '\\N', row.first, row.last].join('\t') + '\n'
}

const seconds_ = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9

try {
  await driverChoice()
  await ingestVsCopy(Math.min(100_000, sizes[sizes.length - 1]!))
  await lookupsAtSizes()
  await ingestStall()
} finally {
  const sql = connect(url, { max: 1 })
  for (const s of schemas) await sql`DROP SCHEMA IF EXISTS ${sql(s)} CASCADE`
  await sql.end({ timeout: 5 })
  database.stop()
  rmSync(dir, { recursive: true, force: true })
}

/** The three ways to write rows, and raw vs parsed reads, on the chosen driver. */
async function driverChoice(): Promise<void> {
  const n = 20_000
  const schema = schemaName('driver')
  const store = await PostgresStore.open(url, { schema, max: 2 })
  const sql = store.sql
  const prepared = Array.from({ length: n }, (_, i) => prepare(new JsonText(line(i))) as Prepared)
  const copyLines = foldBatch(prepared).rows.map(textLine)
  const fields = copyLines.map((l) => l.slice(0, -1).split('\t'))
  const fresh = async () => {
    await sql`DROP TABLE IF EXISTS t`
    await sql`CREATE TABLE t (LIKE events INCLUDING ALL)`
  }
  const columns = sql`(identity, json, event_type, severity, ip, host_rev, first_seen, last_seen)`

  await fresh()
  let start = process.hrtime.bigint()
  const copy = await sql`COPY t ${columns} FROM STDIN`.writable()
  await new Promise<void>((resolve, reject) => {
    copy.once('finish', resolve).once('error', reject)
    copy.end(copyLines.join(''))
  })
  const copyRate = n / seconds_(start)

  await fresh()
  start = process.hrtime.bigint()
  for (let from = 0; from < n; from += 1000) {
    const part = fields.slice(from, from + 1000)
    const col = (k: number) => part.map((f) => (f[k] === '\\N' ? null : f[k]!.replace(/\\\\/g, '\\')))
    await sql`INSERT INTO t ${columns}
      SELECT decode(substr(a, 3), 'hex'), b, c, d, e::inet, f, g::numeric, h::numeric
      FROM unnest(${sql.array(col(0))}::text[], ${sql.array(col(1))}::text[], ${sql.array(col(2))}::text[], ${sql.array(col(3))}::text[],
                  ${sql.array(col(4))}::text[], ${sql.array(col(5))}::text[], ${sql.array(col(6))}::text[], ${sql.array(col(7))}::text[])
           AS u (a, b, c, d, e, f, g, h)`
  }
  const unnestRate = n / seconds_(start)

  await fresh()
  const few = 2_000
  start = process.hrtime.bigint()
  await sql.begin((tx) =>
    fields.slice(0, few).map((f) => {
      const v = (k: number) => (f[k] === '\\N' ? null : f[k]!.replace(/\\\\/g, '\\'))
      return tx`INSERT INTO t ${columns} VALUES (decode(substr(${v(0)}, 3), 'hex'), ${v(1)}, ${v(2)}, ${v(3)}, ${v(4)}::inet, ${v(5)}, ${v(6)}::numeric, ${v(7)}::numeric)`
    }),
  )
  const rowRate = few / seconds_(start)
  await sql`DROP TABLE t`

  console.log(`driver (postgres ${'3.4.9'}): writing ${n} event rows into a table like events`)
  report('COPY … FROM STDIN', copyRate, 'rows/s')
  report('INSERT … SELECT unnest(arrays), 1 000 rows per statement', unnestRate, 'rows/s', { value: unnestRate / copyRate, baseline: 'COPY' })
  report(`one INSERT per row, pipelined in a transaction (${few} rows)`, rowRate, 'rows/s', { value: rowRate / copyRate, baseline: 'COPY' })

  await store.ingest(prepared.map((p) => new JsonText(p.json)))
  const ips = Array.from({ length: 2_000 }, (_, i) => ipOf((i * 7919) % n))
  const timeReads = async (raw: boolean) => {
    const t = process.hrtime.bigint()
    await Promise.all(
      ips.map((ip) => {
        const q = sql`SELECT json, event_type = 'leak' FROM events WHERE ip = ${ip}::inet ORDER BY id`
        return raw ? q.raw() : q
      }),
    )
    return ips.length / seconds_(t)
  }
  const parsed = Math.max(await timeReads(false), await timeReads(false))
  const raw = Math.max(await timeReads(true), await timeReads(true))
  report('host lookup query, rows parsed to strings', parsed, 'queries/s')
  report('host lookup query, raw() bytes (what the store uses)', raw, 'queries/s', { value: raw / parsed, baseline: 'parsed rows' })
  await store.close()
}

/** Ingest through the store vs a bare COPY of the same rows. */
async function ingestVsCopy(n: number): Promise<void> {
  const file = join(dir, 'events.jsonl')
  const out = createWriteStream(file)
  for await (const chunk of lines(0, n)) if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()))
  await new Promise<void>((r) => out.end(() => r()))

  const store = await PostgresStore.open(url, { schema: schemaName('ingest'), max: 2 })
  const { createReadStream } = await import('node:fs')
  let start = process.hrtime.bigint()
  const result = await ingestStream(store, createReadStream(file, { highWaterMark: 1 << 20 }))
  const ingestRate = n / seconds_(start)
  if (result.accepted !== n) throw new Error(`ingest: ${result.accepted} of ${n} accepted`)

  // The same rows as COPY text (made before timing), into an empty table with the same indexes.
  const rows: string[] = []
  for (let from = 0; from < n; from += 10_000) {
    const prepared = Array.from({ length: Math.min(10_000, n - from) }, (_, k) => prepare(new JsonText(line(from + k))) as Prepared)
    for (const r of foldBatch(prepared).rows) rows.push(textLine(r))
  }
  const sql = store.sql
  await sql`CREATE TABLE bare (LIKE events INCLUDING ALL)`
  start = process.hrtime.bigint()
  const copy = await sql`COPY bare (identity, json, event_type, severity, ip, host_rev, first_seen, last_seen) FROM STDIN`.writable()
  await new Promise<void>((resolve, reject) => {
    copy.once('finish', resolve).once('error', reject)
    let i = 0
    const pump = () => {
      while (i < rows.length) {
        const chunk = rows.slice(i, i + 1000).join('')
        i += 1000
        if (!copy.write(chunk)) return void copy.once('drain', pump)
      }
      copy.end()
    }
    pump()
  })
  const copyRate = n / seconds_(start)
  await store.close()
  console.log(`ingest: ${n} canonical events (~${Math.round(line(1).length / 100) / 10} KB each) from JSON Lines, into an empty schema`)
  report('bare COPY of the same rows into a table like events (reference)', copyRate, 'events/s')
  report('PostgresStore ingest (prepare + COPY to staging + INSERT … ON CONFLICT)', ingestRate, 'events/s', { value: ingestRate / copyRate, baseline: 'bare COPY', target: '>= 0.5' })
}

/**
 * Grows one store through the sizes, measuring lookups at each in rounds alternated with a
 * store that stays at the smallest size (the machine is shared: alternating keeps the
 * comparison fair); the memory store and --workers on the way.
 */
async function lookupsAtSizes(): Promise<void> {
  const config = parseConfig(JSON.stringify({ plans: { anonymous: { rate: null, subdomains: null } } }), 'bench')
  const smallest = sizes[0]!
  const small = await PostgresStore.open(url, { schema: schemaName('small'), max: 8 })
  await ingestStream(small, lines(0, smallest))
  await small.sql`ANALYZE events`
  const smallService = await startService({ store: small, config, host: '127.0.0.1', port: 0 })
  const schema = schemaName('grow')
  const store = await PostgresStore.open(url, { schema, max: 8 })
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  const hostPaths = (size: number) => Array.from({ length: 1000 }, (_, k) => `/host/${ipOf((k * 7919 + 13) % size)}`)
  const domainPaths = (size: number) => Array.from({ length: 1000 }, (_, k) => `/domain/d${(k * 7919 + 13) % Math.floor(size / 10)}.test`)
  let loaded = 0
  let memoryDone = false
  for (const size of sizes) {
    const start = process.hrtime.bigint()
    await ingestStream(store, lines(loaded, size))
    console.log(`size ${size}: loaded ${size - loaded} more events in ${seconds_(start).toFixed(1)} s`)
    loaded = size
    await store.sql`ANALYZE events`
    const best = { host: null as LoadResult | null, domain: null as LoadResult | null, smallHost: null as LoadResult | null }
    const keep = (a: LoadResult | null, b: LoadResult) => (a === null || b.rate > a.rate ? b : a)
    for (let r = 0; r < rounds; r++) {
      best.smallHost = keep(best.smallHost, await httpLoad(smallService.port, hostPaths(smallest), seconds))
      best.host = keep(best.host, await httpLoad(service.port, hostPaths(size), seconds))
      best.domain = keep(best.domain, await httpLoad(service.port, domainPaths(size), seconds))
    }
    printLoad(`host lookup at ${size} (1 event)`, best.host!)
    printLoad(`domain lookup at ${size} (10 events)`, best.domain!)
    printLoad(`host lookup at ${smallest}, alternated with the above`, best.smallHost!)
    console.log(`host lookup p50 at ${size} vs ${smallest}: ratio ${(best.host!.p50 / best.smallHost!.p50).toFixed(2)} (target <= 1.5 at 1M)`)

    // The memory store on the same data, once, at the largest size up to 200 000.
    if (!memoryDone && (size >= 100_000 || size === sizes[sizes.length - 1]) && size <= 200_000) {
      memoryDone = true
      const memory = new MemoryStore()
      await ingestStream(memory, lines(0, size))
      const other = await startService({ store: memory as Store, config, host: '127.0.0.1', port: 0 })
      let mem: LoadResult | null = null
      let pg: LoadResult | null = null
      for (let r = 0; r < rounds; r++) {
        mem = keep(mem, await httpLoad(other.port, hostPaths(size), seconds))
        pg = keep(pg, await httpLoad(service.port, hostPaths(size), seconds))
      }
      await other.close(100)
      printLoad(`host lookup at ${size}, memory store`, mem!)
      report(`host lookup at ${size}, PostgreSQL store`, pg!.rate, 'req/s', { value: pg!.rate / mem!.rate, baseline: 'memory store', target: '>= 0.3' })
    }
  }
  await service.close(100)
  await smallService.close(100)
  await store.close()
  await small.close()

  // serve --workers 1 vs 2 on the largest store (processes, so the bench's own thread is idle).
  const file = join(dir, 'serve.json')
  writeFileSync(file, JSON.stringify({ plans: { anonymous: { rate: null } } }))
  // Both run at once (the idle one costs nothing) and rounds alternate; one warm-up round each first.
  const one = await serveProcess(['--store', url, '--schema', schema, '--config', file, '--workers', '1'])
  const two = await serveProcess(['--store', url, '--schema', schema, '--config', file, '--workers', '2'])
  const paths = hostPaths(loaded)
  await httpLoad(one.port, paths, seconds, 32)
  await httpLoad(two.port, paths, seconds, 32)
  let bestOne: LoadResult | null = null
  let bestTwo: LoadResult | null = null
  for (let r = 0; r < rounds; r++) {
    const a = await httpLoad(one.port, paths, seconds, 32)
    const b = await httpLoad(two.port, paths, seconds, 32)
    if (bestOne === null || a.rate > bestOne.rate) bestOne = a
    if (bestTwo === null || b.rate > bestTwo.rate) bestTwo = b
  }
  await one.stop()
  await two.stop()
  printLoad(`host lookup at ${loaded}, serve --workers 1`, bestOne!)
  printLoad(`host lookup at ${loaded}, serve --workers 2`, bestTwo!)
  const rates = [bestOne!.rate, bestTwo!.rate]
  report('serve --workers 2', rates[1]!, 'req/s', { value: rates[1]! / rates[0]!, baseline: '--workers 1', target: '>= 1.6' })
}

/** Lookup p99 during a 16 MiB ingest vs idle, on a fresh PostgreSQL store (as the service bench does on the memory store). */
async function ingestStall(): Promise<void> {
  const store = await PostgresStore.open(url, { schema: schemaName('stall'), max: 8 })
  try {
    printStall('PostgreSQL store', await measureIngestStall(20_000, store))
  } finally {
    await store.close()
  }
}

function printLoad(name: string, r: LoadResult): void {
  console.log(`${name}: ${r.rate.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`)
}

/** `l9kit serve` in its own process tree (from src through tsx); resolves with its port once it listens. */
async function serveProcess(args: string[]): Promise<{ port: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/cli/main.ts'), 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, L9KIT_DATABASE_URL: '' },
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let text = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening`)))
  })
  return {
    port,
    stop: async () => {
      child.kill('SIGTERM')
      await exited
    },
  }
}
