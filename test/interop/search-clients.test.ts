/**
 * Search as LeakIX's own clients do it, against `l9kit serve` (the built binary) on the memory
 * store and on PostgreSQL, written from docs/specification.md ("What the two clients send"; their
 * sources cannot be fetched in CI):
 * - the Python client's search (test/interop/clients/leakix_python.py): its query classes'
 *   serialisation (`+port:443 -country:Germany`, `+time:>"2026-11-24"`, `*`), form-encoded
 *   parameters, headers `api-key` and `accept`, each event read into a dataclass;
 * - the Go client's GetSearchResults and Next() (test/interop/go-search): url.QueryEscape'd
 *   values, pages 0, 1, 2, … until one adds nothing, 429s waited out by `x-limited-for` read with
 *   time.ParseDuration, every page decoded into structs with the original L9Event's field types.
 * Pages hold 2 events here (`search_page_size`), so a few events fill several pages.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Event } from '../../src/schema/index.js'
import { DATABASE_URL, dropSchemasAfterAll, freshSchema } from '../service/postgres/database.js'
import { jsonl, makeEvent } from '../service/support.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'
import { needs, works } from '../languages/support.js'
import { buildGoProgram } from './go-original.js'

const PYTHON = '/usr/bin/python3'
const CLIENT = join(import.meta.dirname, 'clients', 'leakix_python.py')
const KEYS = { pro: 'interop-search-pro-1', registered: 'interop-search-reg-1' }
const dir = fileTempDir('l9kit-interop-search-')
const schema = freshSchema()
dropSchemasAfterAll([schema])

const geo = (code: string, name: string) => ({ ...makeEvent({}).geoip, country_iso_code: code, country_name: name })
/** Services on 443 and 22 in Germany and France, and two leaks either side of 2026-11-24. */
const EVENTS: Event[] = [
  makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.1', port: '443', time: '2026-11-20T08:00:00Z', geoip: geo('FR', 'France') }),
  makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.2', port: '443', time: '2026-11-21T08:00:00.5Z', geoip: geo('DE', 'Germany') }),
  makeEvent({ event_source: 'SshPlugin', ip: '192.0.2.3', port: '22', time: '2026-11-22T08:00:00Z', geoip: geo('FR', 'France') }),
  makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.4', port: '443', time: '2026-11-23T08:00:00.123456789Z', geoip: geo('FR', 'France') }),
  makeEvent({ event_source: 'HttpPlugin', ip: '2001:db8::5', port: '443', time: '2026-11-25T08:00:00Z', geoip: geo('', 'Germany') }),
  makeEvent({ event_source: 'HttpPlugin', ip: '192.0.2.6', port: '443', time: '2026-11-26T08:00:00Z', geoip: geo('NL', 'Netherlands') }),
  makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: '192.0.2.7', port: '80', time: '2026-11-25T09:00:00Z', leak: { ...makeEvent({}).leak, severity: 'high', stage: 'open' } }),
  makeEvent({ event_type: 'leak', event_source: 'GitConfigHttpPlugin', ip: '192.0.2.8', port: '80', time: '2026-11-23T09:00:00Z', leak: { ...makeEvent({}).leak, severity: 'critical', stage: 'open' } }),
]

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

/** `l9kit serve` (built) with pages of 2, the pro plan unlimited, the registered one at 5 requests a second without burst. */
async function serve(store: string[]): Promise<{ url: string; stop(): void }> {
  const config = join(dir, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      keys: [
        { name: 'pro', key: KEYS.pro, plan: 'pro' },
        { name: 'reg', key: KEYS.registered, plan: 'registered' },
      ],
      search_page_size: 2,
      plans: { anonymous: { rate: null }, registered: { rate: 5, burst: 1 }, pro: { rate: null } },
    }),
  )
  const events = join(dir, 'events.jsonl')
  writeFileSync(events, jsonl(EVENTS))
  const child = spawn(process.execPath, [BUILT_CLI, 'serve', '--port', '0', '--config', config, '--load', events, ...store], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, L9KIT_DATABASE_URL: '' } })
  children.add(child)
  let text = ''
  child.stdout!.on('data', (c: Buffer) => (text += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (text += c.toString()))
  const end = Date.now() + 180_000 // (a bound for a hang: a busy machine starts it slowly)
  let url: string | undefined
  while (url === undefined && Date.now() < end && child.exitCode === null) {
    url = /^listening on (http:\/\/\S+)/m.exec(text)?.[1]
    if (url === undefined) await new Promise((r) => setTimeout(r, 25))
  }
  if (url === undefined) throw new Error(`serve did not start:\n${text}`)
  return { url, stop: () => child.kill('SIGTERM') }
}

const STORES: [string, string[]][] = [['memory', []]]
if (DATABASE_URL !== '') STORES.push(['PostgreSQL', ['--store', DATABASE_URL, '--schema', schema]])
else if (process.env.CI === 'true') throw new Error('CI=true needs PostgreSQL for the interop clients on both stores')

/** "SOURCE IP TIME" of events, as both programs print them. */
const lines = (events: Event[], prefix = '') => events.map((e) => `${prefix}${e.event_source} ${e.ip} ${e.time}`)
const byTime = (events: Event[]) => [...events].sort((a, b) => (a.time < b.time ? 1 : -1))
const services = byTime(EVENTS.filter((e) => e.event_type === 'service'))
const leaks = byTime(EVENTS.filter((e) => e.event_type === 'leak'))
/** `+port:443 -country:Germany`: Germany by code or by name. */
const https = services.filter((e) => e.port === '443' && e.geoip.country_iso_code !== 'DE' && e.geoip.country_name !== 'Germany')

const python = (url: string, key: string, scope: string, page: number, terms: unknown[]) => {
  const run = spawnSync(PYTHON, [CLIENT, url, key, 'search', scope, String(page), JSON.stringify(terms)], { encoding: 'utf8', timeout: 120_000 })
  expect(run.stderr).toBe('')
  return run.stdout.trimEnd().split('\n')
}

needs("LeakIX's Python client: search", works(PYTHON, ['--version']), `${PYTHON} (Debian python3)`, () => {
  describe.each(STORES)('against l9kit serve (%s store)', (_name, store) => {
    let service: { url: string; stop(): void }
    beforeAll(async () => (service = await serve(store)), 90_000)
    afterAll(() => service?.stop())

    it('sends +port:443 -country:Germany form-encoded and reads each page of events', () => {
      const terms = [['must', 'port', '', 443], ['must_not', 'country', '', 'Germany']]
      expect(python(service.url, KEYS.pro, 'service', 0, terms)).toEqual(['/search?scope=service&q=%2Bport%3A443+-country%3AGermany&page=0', 'ok 2', ...lines(https.slice(0, 2))])
      expect(https).toHaveLength(3)
      expect(python(service.url, KEYS.pro, 'service', 1, terms)).toEqual(['/search?scope=service&q=%2Bport%3A443+-country%3AGermany&page=1', 'ok 1', ...lines(https.slice(2))])
      expect(python(service.url, KEYS.pro, 'service', 2, terms)).toEqual(['/search?scope=service&q=%2Bport%3A443+-country%3AGermany&page=2', 'ok 0'])
    })

    it('sends a date range in double quotes, and no terms as *', () => {
      expect(python(service.url, '', 'leak', 0, [['must', 'time', '>', { date: '2026-11-24' }]])).toEqual([
        '/search?scope=leak&q=%2Btime%3A%3E%222026-11-24%22&page=0',
        'ok 1',
        ...lines(leaks.slice(0, 1)),
      ])
      expect(python(service.url, KEYS.pro, 'service', 2, [])).toEqual(['/search?scope=service&q=%2A&page=2', 'ok 2', ...lines(services.slice(4, 6))])
    })

    it('gets the 400 with the position and the term for a field the service does not know', () => {
      const out = python(service.url, KEYS.pro, 'service', 0, [['must', 'countri', '', 'FR']])
      expect(out[1]).toBe('error 400 {"title": "Bad Request", "description": "bad query at position 2 (`countri`): there is no field `countri`; did you mean `country`?"}')
    })
  })
})

const goAvailable = spawnSync('go', ['version']).status === 0
needs("LeakIX's Go client: GetSearchResults and Next()", goAvailable, 'the go command', () => {
  const binary = join(dir, 'search')
  beforeAll(() => void buildGoProgram('go-search', dir, 'search'), 300_000)

  const go = (url: string, scope: string, q: string, key: string) => {
    const run = spawnSync(binary, [url, scope, q, key], { encoding: 'utf8', timeout: 120_000 })
    expect(run.stderr).toBe('')
    return run.stdout.trimEnd().split('\n')
  }
  /** Go prints times through time.Time: RFC 3339 with the fraction's trailing zeros dropped, as our canonical form. */
  const events = (out: string[]) => out.filter((l) => l.startsWith('event '))

  describe.each(STORES)('against l9kit serve (%s store)', (_name, store) => {
    let service: { url: string; stop(): void }
    beforeAll(async () => (service = await serve(store)), 90_000)
    afterAll(() => service?.stop())

    it('pages +port:443 -country:Germany (QueryEscape: space as +) until a page adds nothing, every page decoded into the original types', () => {
      const out = go(service.url, 'service', '+port:443 -country:Germany', KEYS.pro)
      const escaped = '/search?scope=service&q=%2Bport%3A443+-country%3AGermany'
      expect(out.filter((l) => l.startsWith('GET '))).toEqual([0, 1, 2].map((p) => `GET ${escaped}&page=${p} 200`))
      expect(events(out)).toEqual(lines(https, 'event '))
      expect(out.at(-1)).toBe(`end 2 ${https.length} 0`)
    })

    it('reads every page of * with a rate-limited key, waiting out each 429 by x-limited-for', () => {
      const out = go(service.url, 'service', '*', KEYS.registered)
      expect(events(out)).toEqual(lines(services, 'event '))
      const pages = Math.ceil(services.length / 2)
      expect(out.at(-1)).toMatch(new RegExp(`^end ${pages} ${services.length} [1-9][0-9]*$`))
      expect(out.filter((l) => / 429$/.test(l)).length).toBeGreaterThan(0)
      expect(out.filter((l) => / 200$/.test(l))).toEqual(Array.from({ length: pages + 1 }, (_, p) => `GET /search?scope=service&q=%2A&page=${p} 200`))
    })

    it('ends with the decode error of a 400 body (not an array) for a bad query', () => {
      const out = go(service.url, 'leak', 'time:>2026-13-01', KEYS.pro)
      expect(out[0]).toBe('GET /search?scope=leak&q=time%3A%3E2026-13-01&page=0 400')
      expect(out[1]).toMatch(/^error page 0 \(status 400\): json: cannot unmarshal object into Go value of type \[\]main\.Event$/)
    })
  })
})
