/**
 * `npm run soak`: a bounded soak run of `l9kit serve` on 127.0.0.1 (issue 14). Not part of
 * `npm test`. The server is loaded with 100 000 events; then, for SOAK_SECONDS (default 60):
 * - autocannon drives host, domain and subdomain lookups (one instance per route, so each has
 *   its own p99), from many keys: 16 registered and pro keys, an empty key, and no key;
 * - ingest batches of new events are POSTed to /admin/events, two at a time;
 * - malformed requests arrive on raw sockets: bad percent-encoding, huge headers, and slow
 *   clients that open a request and never finish its headers.
 * It prints the results and fails (exit 1) on any 5xx or socket error, any ingested event that
 * a lookup does not return afterwards, or resident memory growing more than 5 % over the last
 * third of the run. Options: SOAK_SECONDS, SOAK_EVENTS (default 100000).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { benchEvent } from '../bench/support/events.js'
import { serializeEvent } from '../src/normalize/index.js'
import type { Event } from '../src/schema/index.js'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60)
const EVENTS = Number(process.env.SOAK_EVENTS ?? 100_000)
const ADMIN = 'soak-admin-token-0123456789abcdef'
const KEYS = Array.from({ length: 16 }, (_, i) => ({ name: `soak-${i}`, key: `soak-key-${i}-0123456789`, plan: i % 2 ? 'pro' : 'registered' }))
const RSS_GROWTH_LIMIT = 0.05
const SLOW_CLIENTS = 20

const failures: string[] = []
const fail = (why: string) => failures.push(why)

// 1. Data, configuration and the server.
const dir = mkdtempSync(join(tmpdir(), 'l9kit-soak-'))
const eventsFile = join(dir, 'events.jsonl')
const lines: string[] = []
for (let i = 0; i < EVENTS; i++) lines.push(serializeEvent(benchEvent(i)))
writeFileSync(eventsFile, lines.join('\n') + '\n')
const ips = [...new Set(Array.from({ length: 2000 }, (_, k) => benchEvent((k * 7919) % EVENTS).ip))]
const domains = Array.from({ length: 500 }, (_, k) => `example${k % 997}.com`)
const configFile = join(dir, 'config.json')
const unlimited = { rate: null }
writeFileSync(configFile, JSON.stringify({ keys: KEYS, admin_token: ADMIN, plans: { anonymous: unlimited, registered: unlimited, pro: unlimited } }))

const root = join(import.meta.dirname, '..')
const server = spawn(process.execPath, [join(root, 'dist/cli/main.js'), 'serve', '--host', '127.0.0.1', '--port', '0', '--config', configFile, '--load', eventsFile], {
  stdio: ['ignore', 'pipe', 'pipe'],
})
let serverErr = ''
server.stderr.on('data', (c: Buffer) => (serverErr += c.toString()))
const url = await new Promise<string>((resolve, reject) => {
  let out = ''
  server.stdout.on('data', (c: Buffer) => {
    out += c.toString()
    const m = /^listening on (http:\/\/\S+)/m.exec(out)
    if (m) resolve(m[1]!)
  })
  server.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${serverErr}`)))
  setTimeout(() => reject(new Error('serve did not start within 120 s')), 120_000).unref()
})
const { port } = new URL(url)
console.log(`soak: ${url}, ${EVENTS} events loaded; ${SECONDS} s run`)

try {
  // 2. Resident memory of the server, once a second.
  const rss: { t: number; kb: number }[] = []
  const started = Date.now()
  const sampler = setInterval(() => {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))
    if (m) rss.push({ t: Date.now() - started, kb: Number(m[1]) })
  }, 1000)

  // 3. Lookups: one autocannon instance per route, keys chosen per request.
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!
  const keyHeader = (): Record<string, string> => {
    const r = Math.random()
    if (r < 0.1) return {} // no key: the anonymous plan
    if (r < 0.2) return { 'api-key': '' } // an empty key: the anonymous plan too
    return { 'api-key': pick(KEYS).key }
  }
  const route = (name: string, path: () => string) =>
    new Promise<autocannon.Result & { route: string }>((resolve, reject) => {
      autocannon(
        {
          url,
          connections: 8,
          duration: SECONDS,
          requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path(), headers: { accept: 'application/json', ...keyHeader() } }) }],
        },
        (error, result) => (error ? reject(error) : resolve({ ...result, route: name })),
      )
    })
  const lookups = Promise.all([
    route('GET /host/:ip', () => `/host/${encodeURIComponent(pick(ips))}`),
    route('GET /domain/:domain', () => `/domain/${pick(domains)}`),
    route('GET /api/subdomains/:domain', () => `/api/subdomains/${pick(domains)}`),
  ])

  // 4. Ingest batches, two at a time, of new events (each with its own address).
  const ingested: Event[] = []
  const until = Date.now() + SECONDS * 1000
  let batchNo = 0
  const ingester = async () => {
    while (Date.now() < until - 2000) {
      const batch = Array.from({ length: 40 }, () => {
        const n = batchNo++
        const e = benchEvent(EVENTS + n)
        e.ip = `100.${64 + ((n >> 16) & 63)}.${(n >> 8) & 255}.${n & 255}`
        e.host = ''
        return e
      })
      const answer = await fetch(`${url}/admin/events`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: batch.map(serializeEvent).join('\n') })
      const report = (await answer.json()) as { accepted: number; rejected: unknown[] }
      if (answer.status >= 500) fail(`ingest answered ${answer.status}`)
      else if (report.rejected.length > 0) fail(`ingest rejected ${report.rejected.length} events: ${JSON.stringify(report.rejected[0])}`)
      else ingested.push(...batch)
      await new Promise((r) => setTimeout(r, 1000))
    }
  }
  const ingesting = Promise.all([ingester(), ingester()])

  // 5. Malformed requests on raw sockets, and slow clients that never finish their headers.
  const malformed = { sent: 0, statuses: new Map<string, number>() }
  const raw = (request: string) =>
    new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1')
      let head = ''
      socket.setTimeout(5000, () => socket.destroy())
      socket.on('data', (c: Buffer) => {
        head += c.toString('latin1')
        if (head.includes('\r\n')) socket.end()
      })
      socket.on('error', () => undefined) // the server may close first: its answer is what counts
      socket.on('close', () => {
        const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 'no answer'
        malformed.statuses.set(status, (malformed.statuses.get(status) ?? 0) + 1)
        if (status.startsWith('5')) fail(`malformed request answered ${status}: ${JSON.stringify(request.slice(0, 60))}`)
        resolve()
      })
      socket.write(request)
      malformed.sent++
    })
  const BAD = [
    'GET /host/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /domain/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /api/subdomains/%C0%AF.com HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /host/1.2.3.4%00 HTTP/1.1\r\nHost: x\r\n\r\n',
    `GET /host/192.0.2.1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
    `GET /host/192.0.2.1 HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-${i}: y\r\n`).join('')}\r\n`,
    'GET /host/192.0.2.1 HTTP/9.9\r\n\r\n',
    'BREW /host/192.0.2.1 HTTP/1.1\r\nHost: x\r\n\r\n',
  ]
  const slow = Array.from({ length: SLOW_CLIENTS }, () => {
    const socket = connect(Number(port), '127.0.0.1')
    socket.on('error', () => undefined)
    socket.write('GET /host/192.0.2.1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    return socket
  })
  const malforming = (async () => {
    while (Date.now() < until - 1000) {
      await Promise.all(BAD.map(raw))
      await new Promise((r) => setTimeout(r, 250))
    }
  })()

  const results = await lookups
  await ingesting
  await malforming
  clearInterval(sampler)
  for (const socket of slow) socket.destroy()

  // 6. Every ingested event is retrievable.
  let missing = 0
  for (const e of ingested) {
    const answer = await fetch(`${url}/host/${e.ip}`, { headers: { 'api-key': KEYS[1]!.key } })
    const body = await answer.text()
    if (answer.status !== 200 || !body.includes(e.event_fingerprint)) missing++
  }
  if (missing > 0) fail(`${missing} of ${ingested.length} ingested events not returned by GET /host/:ip`)

  // 7. Report.
  console.log('\nroute                        requests   req/s   p50 ms  p99 ms  max ms  2xx       4xx  5xx  errors  timeouts')
  for (const r of results) {
    const row = [
      r.route.padEnd(28),
      String(r.requests.total).padStart(8),
      r.requests.average.toFixed(0).padStart(7),
      String(r.latency.p50).padStart(8),
      String(r.latency.p99).padStart(7),
      String(r.latency.max).padStart(7),
      String(r['2xx']).padStart(8),
      String(r['4xx']).padStart(6),
      String(r['5xx']).padStart(4),
      String(r.errors).padStart(7),
      String(r.timeouts).padStart(9),
    ]
    console.log(row.join(' '))
    if (r['5xx'] > 0) fail(`${r.route}: ${r['5xx']} answers 5xx`)
    if (r.errors > 0 || r.timeouts > 0) fail(`${r.route}: ${r.errors} socket errors, ${r.timeouts} timeouts`)
    if (r['4xx'] > 0) fail(`${r.route}: ${r['4xx']} answers 4xx to well-formed lookups`)
  }
  console.log(`ingest: ${ingested.length} new events in ${Math.ceil(batchNo / 40)} batches; ${ingested.length - missing} retrievable afterwards`)
  console.log(`malformed: ${malformed.sent} requests, answers ${[...malformed.statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; ${SLOW_CLIENTS} slow clients held open`)
  const third = SECONDS * 1000 * (2 / 3)
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN
  const near = (t: number) => median(rss.filter((s) => Math.abs(s.t - t) <= 2000).map((s) => s.kb))
  const from = near(third)
  const to = near(rss.at(-1)?.t ?? 0)
  const growth = (to - from) / from
  console.log(`server RSS: ${(rss[0]?.kb ?? 0) / 1024 | 0} MiB at start, ${(from / 1024) | 0} MiB at 2/3, ${(to / 1024) | 0} MiB at the end: ${(growth * 100).toFixed(1)} % over the last third (limit ${RSS_GROWTH_LIMIT * 100} %)`)
  if (!(growth <= RSS_GROWTH_LIMIT)) fail(`server RSS grew ${(growth * 100).toFixed(1)} % over the last third`)
} catch (error) {
  fail(`soak stopped: ${(error as Error).message}`)
} finally {
  server.kill('SIGTERM')
  await new Promise((r) => server.once('exit', r))
  rmSync(dir, { recursive: true, force: true })
}
if (/\n\s+at /.test(serverErr)) fail(`the server printed a stack trace:\n${serverErr}`)
console.log(failures.length === 0 ? '\nsoak: passed' : `\nsoak: FAILED\n- ${failures.join('\n- ')}`)
process.exitCode = failures.length === 0 ? 0 : 1
