/**
 * Search (issue 30), every figure beside a baseline measured in the same run:
 * - `l9kit filter QUERY FILE` vs `l9kit validate FILE` on the same canonical JSON Lines file
 *   (built CLI, whole processes, best of interleaved rounds; target ≥ 0.7 of validate's speed);
 * - memory store: a selective search (`ip:…`, parsed per request as the HTTP layer will) vs
 *   `store.host()` returning the same events (target ≥ 0.5 of its rate); and the same over HTTP,
 *   `GET /search?scope=service&q=ip:…` vs `GET /host/…` on one `startService` (16 keep-alive
 *   connections, rounds alternated, best of each; the /host answers come from its answer cache,
 *   as in production);
 * - PostgreSQL store: selective-search p50 at the largest size vs the smallest (target ≤ 1.5:
 *   index-backed, so flat), rounds alternated between a store at each size; queries return the
 *   same number of events at every size (an address, a /28, a domain of ten names, a fingerprint).
 * Sizes: L9KIT_BENCH_EVENTS (filter/validate and memory, default 100000); L9KIT_BENCH_SEARCH_SIZES
 * (PostgreSQL, default 10000,1000000). Database: L9KIT_BENCH_DATABASE_URL or
 * L9KIT_TEST_DATABASE_URL, else a throwaway cluster (scripts/pg-cluster.sh); none: that part is skipped.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseQuery } from '../src/query/index.js'
import { ingestStream, MemoryStore, packageRoot, parseConfig, startService } from '../src/service/index.js'
import { connect, PostgresStore } from '../src/service/store/postgres/index.js'
import { bestTimes, buildCli } from './support/cli.js'
import { benchEvent, benchLines } from './support/events.js'
import { httpLoad } from './support/http-load.js'
import { ipOf, lines } from './support/indexed-events.js'
import { report } from './support/measure.js'

const count = Number(process.env.L9KIT_BENCH_EVENTS ?? 100_000)
const sizes = (process.env.L9KIT_BENCH_SEARCH_SIZES ?? '10000,1000000').split(',').map(Number).sort((a, b) => a - b)
const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-search-'))

try {
  await filterVsValidate()
  const store = memorySearchVsHost()
  await httpSearchVsHost(store)
  await postgresAtSizes()
} finally {
  rmSync(dir, { recursive: true, force: true })
}

/** The CLI on the same file: validate (every document checked) vs filter (every document judged). */
async function filterVsValidate(): Promise<void> {
  const file = join(dir, 'events.jsonl')
  writeFileSync(file, benchLines(count).join('\n') + '\n')
  const { cli } = await buildCli(join(dir, 'cli'))
  const query = '+port:443 -country:DE'
  const [validate, filter] = bestTimes([[cli, 'validate', '--jobs', '1', file], [cli, 'filter', query, '--jobs', '1', file]], 5)
  const [validate2, filter2] = bestTimes([[cli, 'validate', file], [cli, 'filter', query, file]], 3)
  console.log(`filter vs validate: ${count} events in one file, query '${query}'`)
  report('validate --jobs 1', validate!, 'ms')
  report('filter --jobs 1', filter!, 'ms', { value: validate! / filter!, baseline: 'validate --jobs 1', target: '>= 0.7' })
  report('validate (default --jobs)', validate2!, 'ms')
  report('filter (default --jobs)', filter2!, 'ms', { value: validate2! / filter2!, baseline: 'validate (default --jobs)', target: '>= 0.7' })
}

/** Requests per second of `fn` over about a second, best of three. */
function rate(fn: (i: number) => unknown): number {
  let best = 0
  for (let round = 0; round < 3; round++) {
    const start = performance.now()
    let n = 0
    while (performance.now() - start < 1000) for (let k = 0; k < 100; k++) fn(n++)
    best = Math.max(best, n / ((performance.now() - start) / 1000))
  }
  return best
}

function memorySearchVsHost(): MemoryStore {
  const store = new MemoryStore()
  store.ingest(benchLines(count).map((line) => JSON.parse(line)))
  const ips = Array.from({ length: 1000 }, (_, k) => benchEvent((k * 7919 + 13) % count).ip)
  // The same events both ways (a service scope search and the lookup's Services).
  for (const ip of ips.slice(0, 50)) {
    const viaSearch = (store.search(parseQuery(`ip:${ip}`, { scope: 'service' }), { offset: 0, limit: 20 }) as Buffer[]).length
    if (viaSearch !== store.host(ip)!.services.length) throw new Error(`ip:${ip}: search and host differ`)
  }
  const host = rate((i) => store.host(ips[i % ips.length]!))
  const search = rate((i) => store.search(parseQuery(`ip:${ips[i % ips.length]}`, { scope: 'service' }), { offset: 0, limit: 20 }))
  const v4 = ips.filter((ip) => !ip.includes(':'))
  const cidr = rate((i) => store.search(parseQuery(`ip:${v4[i % v4.length]}/28`, { scope: 'service' }), { offset: 0, limit: 20 }))
  console.log(`memory store: ${count} events`)
  report('host(ip)', host, 'lookups/s')
  report('search ip:ADDRESS (parsed per request)', search, 'searches/s', { value: search / host, baseline: 'host(ip)', target: '>= 0.5' })
  report('search ip:IPV4/28 (its 16 addresses)', cidr, 'searches/s', { value: cidr / host, baseline: 'host(ip)' })
  return store
}

/** Over HTTP on one service: GET /search?scope=service&q=ip:IP vs GET /host/IP, the same events. */
async function httpSearchVsHost(store: MemoryStore): Promise<void> {
  const config = parseConfig(JSON.stringify({ plans: { anonymous: { rate: null } } }), 'bench')
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  try {
    const port = Number(new URL(service.url).port)
    const ips = Array.from({ length: 1000 }, (_, k) => benchEvent((k * 7919 + 13) % count).ip)
    const hostPaths = ips.map((ip) => `/host/${ip}`)
    const searchPaths = ips.map((ip) => `/search?scope=service&q=${encodeURIComponent(`ip:${ip}`)}`)
    for (let k = 0; k < 20; k++) {
      const [viaHost, viaSearch] = await Promise.all([fetch(service.url + hostPaths[k]).then((r) => r.json()), fetch(service.url + searchPaths[k]).then((r) => r.json())])
      // The same events (the lookup lists them in its own order; search newest first).
      const set = (events: unknown[]) => events.map((e) => JSON.stringify(e)).sort().join('\n')
      if (set((viaHost as { Services: unknown[] | null }).Services ?? []) !== set(viaSearch as unknown[])) throw new Error(`${ips[k]}: /search and /host differ`)
    }
    let host = 0
    let search = 0
    for (let round = 0; round < 3; round++) {
      host = Math.max(host, (await httpLoad(port, hostPaths, 2)).rate)
      search = Math.max(search, (await httpLoad(port, searchPaths, 2)).rate)
    }
    console.log(`memory store over HTTP: ${count} events, 16 connections`)
    report('GET /host/IP', host, 'requests/s')
    report('GET /search?scope=service&q=ip:IP', search, 'requests/s', { value: search / host, baseline: 'GET /host/IP', target: '>= 0.5' })
  } finally {
    await service.close(100)
  }
}

async function postgresAtSizes(): Promise<void> {
  let url = process.env.L9KIT_BENCH_DATABASE_URL || process.env.L9KIT_TEST_DATABASE_URL || ''
  let cluster = ''
  if (url === '') {
    try {
      const out = execFileSync(join(packageRoot(), 'scripts/pg-cluster.sh'), ['start'], { encoding: 'utf8' })
      url = /L9KIT_TEST_DATABASE_URL=(\S+)/.exec(out)![1]!
      cluster = /L9KIT_PG_CLUSTER_DIR=(\S+)/.exec(out)![1]!
    } catch (error) {
      console.log(`PostgreSQL search: skipped (${(error as Error).message.split('\n')[0]})`)
      return
    }
  }
  const schemas = sizes.map((size) => `bench_search_${size}_${process.pid}`)
  const stores: PostgresStore[] = []
  try {
    for (const [k, size] of sizes.entries()) {
      const store = await PostgresStore.open(url, { schema: schemas[k], max: 4 })
      stores.push(store)
      const start = performance.now()
      await ingestStream(store, lines(0, size))
      await store.sql`ANALYZE events`
      console.log(`PostgreSQL store: ${size} events loaded in ${((performance.now() - start) / 1000).toFixed(1)} s`)
    }
    const kinds: [string, (i: number, size: number) => string][] = [
      ['an address (1 event)', (i, size) => `ip:${ipOf(i % size)}`],
      ['a /28 (16 events)', (i, size) => `ip:${ipOf((i * 16) % size).replace(/\.\d+$/, (m) => `.${Number(m.slice(1)) & 0xf0}`)}/28`],
      ['a domain (10 events)', (i, size) => `domain:d${i % Math.floor(size / 10)}.test`],
      ['a fingerprint (1 event)', (i, size) => `l9fp:${(i % size).toString(16).padStart(64, '0')}`],
    ]
    for (const [name, make] of kinds) {
      const p50 = sizes.map(() => Infinity)
      for (let round = 0; round < 3; round++) {
        for (const [k, size] of sizes.entries()) {
          const times: number[] = []
          for (let i = 0; i < 300; i++) {
            const q = make((i * 7919 + round * 13) % size, size)
            const start = performance.now()
            await stores[k]!.search(parseQuery(q, { scope: 'service' }), { offset: 0, limit: 20 })
            times.push(performance.now() - start)
          }
          times.sort((a, b) => a - b)
          p50[k] = Math.min(p50[k]!, times[times.length >> 1]!)
        }
      }
      const last = sizes.length - 1
      report(`PostgreSQL search p50, ${name}, at ${sizes[last]}`, p50[last]!, 'ms', { value: p50[last]! / p50[0]!, baseline: `p50 at ${sizes[0]}`, target: '<= 1.5' })
    }
  } finally {
    for (const store of stores) await store.close()
    const sql = connect(url, { max: 1 })
    for (const s of schemas) await sql`DROP SCHEMA IF EXISTS ${sql(s)} CASCADE`
    await sql.end({ timeout: 5 })
    if (cluster) execFileSync(join(packageRoot(), 'scripts/pg-cluster.sh'), ['stop', cluster])
  }
}
