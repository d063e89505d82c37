/**
 * The client commands (host, domain, subdomains, search, count, bulk, plugins) against a served
 * store, memory and PostgreSQL: what each prints in its output formats, paging until the empty
 * page (and --limit, --pages, the plan's cap), exit statuses (0 found, 1 nothing, 2 an error),
 * query errors with the caret `filter` prints, refusals and an unreachable server, 429s waited
 * out (the service's limiter on a clock the test moves, so no run depends on the machine's
 * speed), the status line on a terminal only, and `count` against a server without the count
 * route (said so; --slow counts by paging, with the same answer).
 */
import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'
import type { Event } from '../../src/schema/index.js'
import { MemoryStore, parseConfig, type RunningService, startService, type Store } from '../../src/service/index.js'
import { PostgresStore } from '../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from '../service/postgres/database.js'
import { KEYS, makeEvent, serveForTest, unlimitedConfig } from '../service/support.js'
import { BUILT_CLI, runBuilt } from '../support/built-cli.js'
import { Lines } from '../support/running.js'
import { Capture } from '../support/streams.js'

/** 45 services on 192.0.2.1–45 (newest last), names under example.com; 3 leaks, and an older one without a port. */
const EVENTS: Event[] = [
  ...Array.from({ length: 45 }, (_, i) =>
    makeEvent({
      event_source: i % 3 === 0 ? 'HttpPlugin' : 'SshPlugin',
      ip: `192.0.2.${i + 1}`,
      host: i < 6 ? `h${i % 3}.example.com` : '',
      port: i % 2 === 0 ? '443' : '22',
      transport: i % 2 === 0 ? ['tcp', 'http', 'tls'] : ['tcp'],
      protocol: i % 2 === 0 ? 'https' : 'ssh',
      time: `2026-11-24T10:00:${String(i).padStart(2, '0')}Z`,
      geoip: { ...makeEvent({}).geoip, country_iso_code: i % 4 === 0 ? 'DE' : 'FR' },
    }),
  ),
  ...['critical', 'high', 'high'].map((severity, i) =>
    makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: `198.51.100.${i + 1}`, host: 'www.example.com', port: '80', time: `2026-11-2${i}T00:00:00Z`, leak: { ...makeEvent({}).leak, severity, stage: 'open' } }),
  ),
  makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: '198.51.100.9', port: '', time: '2026-10-01T00:00:00Z', leak: { ...makeEvent({}).leak, severity: 'low' } }),
]

interface Run {
  code: number
  stdout: string
  stderr: string
}

/** `l9kit ...argv` in-process, with the environment and whether standard error is a terminal. */
async function l9kit(argv: string[], env: Record<string, string> = {}, tty = false): Promise<Run> {
  const stdout = new Capture()
  const stderr = new Capture()
  const io: Io = { stdin: process.stdin, stdout, stderr, stderrIsTTY: tty, env }
  const code = await main(argv, io)
  return { code, stdout: stdout.text, stderr: stderr.text }
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '')
const parsed = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>)

/** The cases every store answers the same. */
function commandCases(service: () => RunningService) {
  const at = () => ['--base-url', service().url, '--rate', 'auto']

  it('host and domain print the events one per line (services, then leaks); 1 when none, 2 for a bad address', async () => {
    const host = await l9kit(['host', '192.0.2.7', ...at()])
    expect(host.code).toBe(0)
    expect(parsed(host.stdout).map((e) => [e.ip, e.port])).toEqual([['192.0.2.7', '443']])
    const domain = await l9kit(['domain', 'example.com', ...at()])
    expect(domain.code).toBe(0)
    const got = parsed(domain.stdout)
    expect(got.map((e) => e.event_type)).toEqual([...Array(6).fill('service'), 'leak', 'leak', 'leak'])
    expect(new Set(got.map((e) => e.host))).toEqual(new Set(['h0.example.com', 'h1.example.com', 'h2.example.com', 'www.example.com']))
    const none = await l9kit(['host', '203.0.113.200', ...at()])
    expect([none.code, none.stdout]).toEqual([1, ''])
    const bad = await l9kit(['host', 'not-an-ip', ...at()])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('l9kit host: the server answered 400 Bad Request: "not-an-ip" is not an IPv4 or IPv6 address.\n')
  })

  it('writes events in convert’s formats: human, csv --fields, hostport, url', async () => {
    const csv = await l9kit(['domain', 'h1.example.com', '--to', 'csv', '--fields', 'ip,port,host', ...at()])
    expect(csv.stdout.split('\r\n')[0]).toBe('ip,port,host')
    expect(lines(csv.stdout.replace(/\r/g, '')).slice(1).sort()).toEqual(['192.0.2.2,22,h1.example.com', '192.0.2.5,443,h1.example.com'])
    expect((await l9kit(['host', '192.0.2.7', '--to', 'hostport', ...at()])).stdout).toBe('192.0.2.7:443\n')
    expect((await l9kit(['host', '192.0.2.1', '--to', 'url', ...at()])).stdout).toBe('https://h0.example.com\n')
    const human = await l9kit(['host', '192.0.2.1', '--to', 'human', ...at()])
    expect(human.stdout).toMatch(/^service 192\.0\.2\.1:443 \(h0\.example\.com\) 2026-11-24T10:00:00Z\n {2}source: +HttpPlugin/)
    // An event the format cannot write is told and counted; the others are written.
    const noPort = await l9kit(['host', '198.51.100.9', '--to', 'hostport', ...at()])
    expect([noPort.code, noPort.stdout, noPort.stderr]).toEqual([0, '', 'l9kit host: event 1 (198.51.100.9): no port to write\n'])
    const unknownField = await l9kit(['host', '192.0.2.2', '--to', 'csv', '--fields', 'ip,prot', ...at()])
    expect([unknownField.code, unknownField.stderr]).toEqual([2, expect.stringMatching(/^l9kit host: --fields: unknown field 'prot'/)])
  })

  it('subdomains: JSON Lines, human columns and CSV', async () => {
    const json = await l9kit(['subdomains', 'example.com', ...at()])
    expect(json.code).toBe(0)
    expect(parsed(json.stdout).map((e) => e.subdomain).sort()).toEqual(['h0.example.com', 'h1.example.com', 'h2.example.com', 'www.example.com'])
    const human = await l9kit(['subdomains', 'example.com', '--to', 'human', ...at()])
    expect(lines(human.stdout)[0]).toMatch(/^SUBDOMAIN +IPS +LAST SEEN$/)
    expect(lines(human.stdout)).toHaveLength(5)
    const csv = await l9kit(['subdomains', 'example.com', '--to', 'csv', ...at()])
    expect(csv.stdout.split('\r\n')[0]).toBe('subdomain,distinct_ips,last_seen')
    expect((await l9kit(['subdomains', 'nothing.test', ...at()])).code).toBe(1)
  })

  it('search reads every page until an empty one, newest first; --limit and --pages stop it early', async () => {
    const all = await l9kit(['search', '*', '--scope', 'service', ...at()])
    expect(all.code).toBe(0)
    expect(parsed(all.stdout).map((e) => e.ip)).toEqual(EVENTS.slice(0, 45).map((e) => e.ip).reverse())
    const limited = await l9kit(['search', '+port:443', '--scope', 'service', '--limit', '3', '--to', 'hostport', ...at()])
    expect(limited.stdout).toBe('192.0.2.45:443\n192.0.2.43:443\n192.0.2.41:443\n')
    expect(parsed((await l9kit(['search', '*', '--scope', 'service', '--pages', '2', ...at()])).stdout)).toHaveLength(40)
    expect(parsed((await l9kit(['search', '*', '--scope', 'service', '--from-page', '2', ...at()])).stdout)).toHaveLength(5)
    const leaks = await l9kit(['search', '+severity:high', ...at()])
    expect(parsed(leaks.stdout).map((e) => e.ip)).toEqual(['198.51.100.3', '198.51.100.2'])
    expect((await l9kit(['search', '+port:1', '--scope', 'service', ...at()])).code).toBe(1)
  })

  it('shows a query the server refuses as filter does: the message and a caret under the term, exit 2', async () => {
    const r = await l9kit(['search', '+port:443 +countri:FR', '--scope', 'service', ...at()])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('l9kit search: bad query at position 12 (`countri`): there is no field `countri`; did you mean `country`?\n+port:443 +countri:FR\n           ^^^^^^^\n')
    const filter = await l9kit(['filter', '+port:443 +countri:FR', '--scope', 'service'])
    expect(r.stderr.replace('l9kit search:', 'l9kit filter:')).toBe(filter.stderr)
    const count = await l9kit(['count', 'severity:high', '--scope', 'service', ...at()])
    expect(count.stderr).toMatch(/^l9kit count: bad query at position 1 \(`severity`\): `leak.severity` is a field of leaks.*\nseverity:high\n\^{8}\n$/)
  })

  it('count prints the total and facets (JSON, or readable), the same as paging finds', async () => {
    const r = await l9kit(['count', '+port:443', '--scope', 'service', '--facet', 'country,plugin:1', '--facet', 'transport', ...at()])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toEqual({
      total: 23,
      facets: { country: [{ value: 'FR', count: 11 }, { value: 'DE', count: 12 }].sort((a, b) => b.count - a.count), plugin: [{ value: 'SshPlugin', count: 15 }], transport: [{ value: 'http', count: 23 }, { value: 'tcp', count: 23 }, { value: 'tls', count: 23 }] },
    })
    const human = await l9kit(['count', '*', '--facet', 'severity', '--to', 'human', ...at()])
    expect(human.stdout).toBe('4 events match\n\nseverity:\n  high      2\n  critical  1\n  low       1\n')
    const none = await l9kit(['count', '+port:1', '--scope', 'service', ...at()])
    expect([none.code, none.stdout]).toEqual([1, '{"total":0}\n'])
    const facet = await l9kit(['count', '*', '--facet', 'prot', ...at()])
    expect([facet.code, facet.stderr]).toEqual([2, expect.stringMatching(/^l9kit count: the server answered 400 Bad Request: The facet parameter: there is no facet `prot`/)])
  })

  it('bulk streams aggregations of leaks (JSON Lines) and service events (any format) to a pro key; 403 said, 1 when nothing matches', async () => {
    const leaks = await l9kit(['bulk', '*', '--api-key', KEYS.pro, ...at()])
    expect(leaks.code).toBe(0)
    expect(parsed(leaks.stdout).map((a) => a.resource_id).sort()).toEqual(['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.9'])
    const services = await l9kit(['bulk', '+port:443 +country:DE', '--scope', 'service', '--to', 'hostport', '--api-key', KEYS.pro, ...at()])
    expect(lines(services.stdout).sort()).toEqual(EVENTS.slice(0, 45).filter((e) => e.port === '443' && e.geoip.country_iso_code === 'DE').map((e) => `${e.ip}:443`).sort())
    expect((await l9kit(['bulk', '+port:1', '--scope', 'service', '--api-key', KEYS.pro, ...at()])).code).toBe(1)
    const refused = await l9kit(['bulk', '*', ...at()])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^l9kit bulk: the server answered 403 Forbidden: The bulk export is for pro keys/)
  })

  it('plugins lists every plugin, or one; an unknown one is 1', async () => {
    const list = await l9kit(['plugins', ...at()])
    expect(parsed(list.stdout).map((p) => p.name)).toEqual(['DotEnvConfigPlugin', 'HttpPlugin', 'SshPlugin'])
    expect(lines((await l9kit(['plugins', '--to', 'human', ...at()])).stdout)[0]).toMatch(/^PLUGIN +1H +24H +7D +DESCRIPTION$/)
    expect(parsed((await l9kit(['plugins', 'HttpPlugin', ...at()])).stdout)).toEqual([{ name: 'HttpPlugin', description: 'Events reported by the HttpPlugin plugin.' }])
    const unknown = await l9kit(['plugins', 'NoSuchPlugin', ...at()])
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([1, '', 'l9kit plugins: the server knows no plugin "NoSuchPlugin"\n'])
  })
}

describe('client commands (memory store)', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const service = await serveForTest({ store, config: unlimitedConfig() })
  commandCases(() => service)

  it('take the server and key from L9KIT_BASE_URL and L9KIT_API_KEY; an unknown key and an unreachable server are 2', async () => {
    const env = { L9KIT_BASE_URL: service.url, L9KIT_API_KEY: KEYS.pro }
    expect((await l9kit(['bulk', '+port:80', '--rate', 'auto'], env)).code).toBe(0)
    const wrong = await l9kit(['host', '192.0.2.1', '--rate', 'auto'], { ...env, L9KIT_API_KEY: 'no-such-key-0' })
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringMatching(/^l9kit host: the server answered 401 Unauthorized: The api-key header holds no known key/)])
    // A port nothing listens on (the service's own, once closed).
    const closed = await serveForTest({ store: new MemoryStore(), config: unlimitedConfig() })
    await closed.close(10)
    const away = await l9kit(['host', '192.0.2.1', '--base-url', closed.url, '--rate', 'auto'])
    expect([away.code, away.stderr]).toEqual([2, expect.stringMatching(/^l9kit host: GET http:\/\/127\.0\.0\.1:\d+\/host\/192\.0\.2\.1: ECONNREFUSED\n$/)])
    const dash = await l9kit(['search', '-country:DE', '--scope', 'service'])
    expect([dash.code, dash.stderr]).toEqual([2, "l9kit search: '-country:DE' reads as an option: a QUERY that starts with '-' goes after '--' (l9kit search [options] -- '-country:DE')\n"])
    expect((await l9kit(['search', '--scope', 'service', '--base-url', service.url, '--rate', 'auto', '--', '-country:DE'])).code).toBe(0)
    for (const argv of [['host'], ['host', 'a', 'b'], ['search', '*', '--scope', 'all'], ['host', '1.2.3.4', '--base-url', 'ftp://x'], ['search', '*', '--rate', '0'], ['bulk', '*', '--to', 'csv']]) {
      const r = await l9kit(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr, argv.join(' ')).toMatch(/^l9kit /)
    }
  })

  it('each has its own --help', async () => {
    for (const name of ['host', 'domain', 'subdomains', 'search', 'count', 'bulk', 'plugins']) {
      const r = await l9kit([name, '--help'])
      expect(r.code, name).toBe(0)
      expect(r.stdout, name).toMatch(new RegExp(`^Usage: l9kit ${name} `))
      expect(r.stdout, name).toContain('--base-url URL')
      expect(r.stdout, name).toContain('Exit status: 0 something found, 1 nothing found, 2')
    }
  })
})

describe('client commands and the rate limit', async () => {
  // One request at once, then 10 a second; the limiter's clock moves 40 ms at every request,
  // whatever the real time: every other request meets a 429 and waits as x-limited-for says.
  let clock = 0
  const config = parseConfig(JSON.stringify({ plans: { anonymous: { rate: 10, burst: 1, search_pages: 2 } } }), 'strict.json')
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const service = await serveForTest({ store, config, limiter: { now: () => (clock += 40) } })

  it('waits out 429s and reads every page; the waiting shows on a terminal only', async () => {
    const quiet = await l9kit(['search', '+port:443', '--scope', 'service', '--base-url', service.url, '--rate', 'auto'])
    expect(quiet.code).toBe(0)
    expect(parsed(quiet.stdout)).toHaveLength(23)
    expect(quiet.stderr).toBe('')
    const shown = await l9kit(['host', '192.0.2.1', '--base-url', service.url, '--rate', 'auto'], {}, true)
    expect(shown.code).toBe(0)
    expect(shown.stderr).toMatch(/rate-limited by the server: waiting 0\.\d s/)
    expect(shown.stderr.endsWith('\r\x1b[K')).toBe(true)
  })

  it('ends at the plan’s page cap with the server’s reason, after the events it wrote (exit 2)', async () => {
    const r = await l9kit(['search', '*', '--scope', 'service', '--base-url', service.url, '--rate', 'auto'])
    expect(r.code).toBe(2)
    expect(parsed(r.stdout)).toHaveLength(40)
    expect(r.stderr).toBe(
      'l9kit search: the server answered 403 Forbidden: The anonymous plan may read search pages 0 to 1 (40 events); page 2 is beyond them. Narrow the query, or use a key of a plan with more pages.\n' +
        'l9kit search: 40 events were written before that\n',
    )
  })

  it('gives up when the wait would pass --max-wait', async () => {
    const frozen = await serveForTest({ store, config, limiter: { now: () => 0 } })
    await l9kit(['host', '192.0.2.1', '--base-url', frozen.url, '--rate', 'auto'])
    const r = await l9kit(['host', '192.0.2.1', '--base-url', frozen.url, '--rate', 'auto', '--max-wait', '0'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit host: GET \/host\/192\.0\.2\.1: still rate-limited after 0 retries and 0 ms of waiting \(the next wait, 100 ms, would pass the 0 ms cap\)\n$/)
  })
})

describe('count against a server without GET /search/count (LeakIX-shaped)', async () => {
  const store = new MemoryStore()
  store.ingest(EVENTS)
  const service = await serveForTest({ store, config: unlimitedConfig({ search_page_size: 7, plans: { anonymous: { rate: null, search_pages: null } } }) })
  // Everything passed on to the service, but /search/count: 404, as LeakIX answers an unknown route.
  let proxy: Server
  let url = ''
  beforeAll(async () => {
    proxy = createServer((req, res) => {
      if (req.url?.startsWith('/search/count')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"title":"Not Found","description":"no route"}')
      fetch(service.url + req.url, { headers: { accept: 'application/json' } }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()))
      }, () => res.destroy())
    })
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())))

  it('says the server has no count route; --slow counts by paging with the answer the route gives', async () => {
    const r = await l9kit(['count', '+port:443', '--scope', 'service', '--base-url', url, '--rate', 'auto'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^l9kit count: http:\/\/127\.0\.0\.1:\d+ has no GET \/search\/count \(it answered 404\).*Add --slow/)
    for (const [q, facets] of [
      ['+port:443', 'country,plugin:1,ip:4,transport'],
      ['*', ''],
      ['-country:DE', 'host,port'],
    ] as const) {
      const argv = ['count', '--scope', 'service', '--rate', 'auto', ...(facets === '' ? [] : ['--facet', facets])]
      const slow = await l9kit([...argv, '--slow', '--base-url', url, '--', q])
      const route = await l9kit([...argv, '--base-url', service.url, '--', q])
      expect(slow.code, q).toBe(0)
      expect(slow.stdout, q).toBe(route.stdout)
    }
    const bad = await l9kit(['count', '*', '--facet', 'prot', '--slow', '--base-url', url, '--rate', 'auto'])
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/^l9kit count: --facet: there is no facet `prot`/)])
  })
})

describePostgres('client commands (PostgreSQL store)', () => {
  const schema = freshSchema()
  dropSchemasAfterAll([schema])
  let service: RunningService
  let store: Store
  beforeAll(async () => {
    const pg = await PostgresStore.open(DATABASE_URL, { schema, max: 2 })
    await pg.ingest(EVENTS)
    store = pg
    service = await startService({ store, config: unlimitedConfig(), host: '127.0.0.1', port: 0 })
  })
  afterAll(async () => {
    await service?.close(100)
    await (store as PostgresStore | undefined)?.close()
  })
  commandCases(() => service)
})

describe('the built binary against the built `l9kit serve` (its demo data)', () => {
  it('looks up, searches and counts, with the demo keys; the server stops cleanly after', { timeout: 120_000 }, async () => {
    const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', '0', '-q'], { stdio: ['ignore', 'pipe', 'pipe'] })
    const out = new Lines()
    child.stdout.pipe(out)
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    try {
      const [, url] = (await Promise.race([out.waitFor(/^listening on (http:\/\/\S+)\n/), exited.then(() => [])])) as string[]
      expect(url).toBeDefined()
      const at = ['--base-url', url!, '--rate', 'auto']
      const host = await runBuilt(['host', '192.0.2.10', '--to', 'hostport', ...at])
      expect([host.code, host.stderr]).toEqual([0, ''])
      expect(lines(host.stdout).every((l) => l.startsWith('192.0.2.10:'))).toBe(true)
      const count = await runBuilt(['count', '*', '--facet', 'severity', ...at])
      const search = await runBuilt(['search', '*', '--api-key', 'l9kit-demo-pro', ...at])
      expect(parsed(search.stdout)).toHaveLength((JSON.parse(count.stdout) as { total: number }).total)
      const bad = await runBuilt(['count', '+countri:FR', ...at])
      expect([bad.code, bad.stderr]).toEqual([2, 'l9kit count: bad query at position 2 (`countri`): there is no field `countri`; did you mean `country`?\n+countri:FR\n ^^^^^^^\n'])
    } finally {
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })
})
