/**
 * `npm run bench -- abuse` (issue 40, "Must show"): do costly searches stall lookups? Host-lookup
 * latency from a probe thread (four keep-alive sockets, bench/support/stall-threads.ts) in idle
 * windows and in abuse windows of the same length, alternating, on the memory store and on
 * PostgreSQL. In an abuse window an anonymous client sends, at the anonymous plan's rate (one a
 * second, its burst of two first), the audit's costly regex `+port:22 +summary:~"([^a]{0,50}
 * [^b]{0,50}){10}z"` and a query of 128 optional words, one after the other; a second round does
 * the same with a pro key, whose plan lets both run (off the lookups' thread, within its work).
 * The service has the default plans, the default limits and 20 000 events, half of them on port
 * 22 with a 2 KB summary. Target: lookup p99 during the abuse ≤ 3 × the idle p99 of the same run.
 *
 * Database: L9KIT_BENCH_DATABASE_URL or L9KIT_TEST_DATABASE_URL, else a throwaway cluster made
 * with scripts/pg-cluster.sh; L9KIT_BENCH_ABUSE_STORES=memory to leave PostgreSQL out.
 */
import { request as httpRequest } from 'node:http'
import { emptyEvent, type Event } from '../src/schema/index.js'
import { lowerHelperThreads, MemoryStore, parseConfig, startService, type Store } from '../src/service/index.js'
import { PostgresStore } from '../src/service/store/postgres/index.js'
import { benchDatabase } from './support/database.js'
import { probe } from './support/stall-threads.js'

const EVENTS = 20_000
const ROUNDS = 3
const WINDOW_MS = 6_000
const KEYS = { pro: 'bench-abuse-pro-key-01', probe: 'bench-abuse-probe-key-01' }
const COSTLY_REGEX = '+port:22 +summary:~"([^a]{0,50}[^b]{0,50}){10}z"'
const WORDS_128 = Array.from({ length: 128 }, (_, i) => `w${i}x`).join(' ')
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function event(i: number): Event {
  const e = emptyEvent()
  e.event_type = 'service'
  e.event_source = i % 2 ? 'tcpid' : 'SshPlugin'
  e.ip = `198.51.${(i >> 8) & 255}.${i & 255}`
  e.port = i % 2 ? '443' : '22'
  e.event_fingerprint = i.toString(16).padStart(64, '0')
  e.summary = `SSH-2.0-OpenSSH_${i} ${'lorem ipsum dolor sit amet '.repeat(75)}`
  e.time = `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T00:00:${String(i % 60).padStart(2, '0')}Z`
  return e
}

function get(url: URL, path: string, key?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, agent: false, headers: key ? { 'api-key': key } : {} }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Sends the two costly queries alternately at one a second (two at once first: the burst) until `until`; the statuses seen. */
async function abuse(base: string, until: number, key?: string): Promise<Map<number, number>> {
  const url = new URL(base)
  const statuses = new Map<number, number>()
  const send = async (q: string) => {
    const status = await get(url, `/search?scope=service&q=${encodeURIComponent(q)}`, key)
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
  }
  await Promise.all([send(COSTLY_REGEX), send(WORDS_128)])
  for (let i = 0; performance.now() < until; i++) {
    const started = performance.now()
    await send(i % 2 ? WORDS_128 : COSTLY_REGEX)
    await sleep(Math.max(0, 1_000 - (performance.now() - started)))
  }
  return statuses
}

type Window = [number, number]
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN
function latencies(samples: Float64Array, windows: Window[]): number[] {
  const out: number[] = []
  for (let i = 0; i < samples.length; i += 2) if (windows.some(([a, b]) => samples[i]! >= a && samples[i]! < b)) out.push(samples[i + 1]!)
  return out
}

async function measure(name: string, store: Store): Promise<void> {
  for (let from = 0; from < EVENTS; from += 2_000) await store.ingest(Array.from({ length: 2_000 }, (_, k) => event(from + k)))
  const config = parseConfig(
    JSON.stringify({
      keys: [
        { name: 'pro', key: KEYS.pro, plan: 'pro' },
        { name: 'probe', key: KEYS.probe, plan: 'registered' },
      ],
      plans: { registered: { rate: null } },
    }),
    'bench',
  )
  const service = await startService({ store, config, host: '127.0.0.1', port: 0 })
  const prober = probe(service.port, '/host/198.51.0.8', KEYS.probe)
  const now = () => performance.timeOrigin + performance.now()
  const windows = { idle: [] as Window[], anonymous: [] as Window[], pro: [] as Window[] }
  const seen = { anonymous: new Map<number, number>(), pro: new Map<number, number>() }
  try {
    await sleep(1_000) // (the probe warms the lookup path up)
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of ['anonymous', 'pro'] as const) {
        const t0 = now()
        await sleep(WINDOW_MS)
        windows.idle.push([t0, now()])
        const t1 = now()
        const statuses = await abuse(service.url, performance.now() + WINDOW_MS, kind === 'pro' ? KEYS.pro : undefined)
        windows[kind].push([t1, now()])
        for (const [status, n] of statuses) seen[kind].set(status, (seen[kind].get(status) ?? 0) + n)
        await sleep(1_500) // (the anonymous bucket fills again; a pro search still running ends)
      }
    }
  } finally {
    const { samples } = await prober.stop()
    await service.close(100)
    const idle = latencies(samples, windows.idle)
    const idle99 = percentile(idle, 99)
    console.log(`${name}: ${EVENTS} events; idle lookups ${idle.length}, p50 ${percentile(idle, 50).toFixed(2)} ms, p99 ${idle99.toFixed(2)} ms`)
    for (const kind of ['anonymous', 'pro'] as const) {
      const during = latencies(samples, windows[kind])
      const p99 = percentile(during, 99)
      const answers = [...seen[kind]].sort().map(([s, n]) => `${n}×${s}`).join(', ')
      console.log(`  ${kind} abuse: lookups ${during.length}, p50 ${percentile(during, 50).toFixed(2)} ms, p99 ${p99.toFixed(2)} ms: ${(p99 / idle99).toFixed(2)} × idle p99 (target ≤ 3); searches answered ${answers}`)
    }
  }
}

// As `l9kit serve` does with ingest on: this process's helper threads in the idle class.
lowerHelperThreads('idle')
await measure('memory store', new MemoryStore())
if (process.env.L9KIT_BENCH_ABUSE_STORES !== 'memory') {
  const database = benchDatabase()
  const schema = `bench_abuse_${process.pid}`
  const store = await PostgresStore.open(database.url, { schema })
  try {
    await measure('PostgreSQL', store)
  } finally {
    await store.sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined)
    await store.close()
    database.stop()
  }
}
