/**
 * LeakIX's own clients against `l9kit serve` (the built binary), on the memory store and on
 * PostgreSQL, as docs/specification.md describes their requests and reading rules (their sources
 * cannot be fetched in CI, so these are ours, written from the facts):
 * - the Python client's get_plugins and get_plugin (found and unknown), bulk_export,
 *   bulk_export_last_event, bulk_export_stream and bulk_service: test/interop/clients/leakix_python.py;
 * - the Go client's GetChannel: test/interop/go-channel (gorilla/websocket from Debian, Origin
 *   HOST:PORT and api-key, each message decoded into the original L9Event's types) receiving an
 *   event ingested after it connected.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nowInstant } from '../../src/service/index.js'
import { formatTime } from '../../src/time/index.js'
import { DATABASE_URL, freshSchema, dropSchemasAfterAll } from '../service/postgres/database.js'
import { jsonl, makeEvent, request } from '../service/support.js'
import { BUILT_CLI } from '../support/built-cli.js'
import { fileTempDir } from '../support/temp.js'
import { needs, works } from '../languages/support.js'
import { buildGoProgram } from './go-original.js'

const PYTHON = '/usr/bin/python3'
const CLIENT = join(import.meta.dirname, 'clients', 'leakix_python.py')
const GORILLA = '/usr/share/gocode/src/github.com/gorilla/websocket'
const KEYS = { pro: 'interop-pro-key-1', registered: 'interop-reg-key-1', admin: 'interop-admin-token-01' }
const dir = fileTempDir('l9kit-interop-clients-')
const schema = freshSchema()
dropSchemasAfterAll([schema])

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

/** `l9kit serve` (built) with our keys and plugin descriptions; resolves with its URL once it listens. */
async function serve(store: string[]): Promise<{ url: string; stop(): void }> {
  const config = join(dir, 'config.json')
  writeFileSync(
    config,
    JSON.stringify({
      keys: [
        { name: 'pro', key: KEYS.pro, plan: 'pro' },
        { name: 'reg', key: KEYS.registered, plan: 'registered' },
      ],
      admin_token: KEYS.admin,
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      plugins: { DotEnvConfigPlugin: 'Environment files (.env) served over HTTP.' },
    }),
  )
  const recent = formatTime(nowInstant() - 300_000_000_000n)
  const events = join(dir, 'events.jsonl')
  const redis = (ip: string, port: string, time: string) => makeEvent({ event_type: 'leak', event_source: 'RedisOpenPlugin', ip, port, time, leak: { ...makeEvent({}).leak, severity: 'high' } })
  writeFileSync(
    events,
    jsonl([
      makeEvent({ event_type: 'leak', event_source: 'DotEnvConfigPlugin', ip: '192.0.2.11', time: recent }),
      makeEvent({ event_source: 'httpx', ip: '192.0.2.12', port: '443', time: '2021-01-01T00:00:00Z' }),
      // For the bulk export: two resources, one with two leaks.
      redis('192.0.2.21', '6379', '2021-03-01T00:00:00Z'),
      redis('192.0.2.21', '6380', '2021-03-03T00:00:00Z'),
      redis('::ffff:192.0.2.22', '6379', '2021-03-05T00:00:00Z'),
    ]),
  )
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

const python = (url: string, ...args: string[]) => {
  const run = spawnSync(PYTHON, [CLIENT, url, ...args], { encoding: 'utf8', timeout: 120_000 })
  expect(run.stderr).toBe('')
  return run.stdout.trimEnd().split('\n')
}

/** Runs the Go GetChannel program until it has printed `count` events; its lines. */
function goChannel(binary: string, url: string, key: string, count: number, onConnected: () => Promise<unknown>): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [new URL(url).host, 'leak', key, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let out = ''
    let err = ''
    child.stdout.on('data', (c: Buffer) => {
      const before = out
      out += c.toString()
      if (!before.includes('connected\n') && out.includes('connected\n')) onConnected().catch(reject)
    })
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('close', () => {
      clearTimeout(timer)
      if (err !== '') reject(new Error(err))
      else resolve(out.trimEnd().split('\n'))
    })
  })
}

const STORES: [string, string[]][] = [['memory', []]]
if (DATABASE_URL !== '') STORES.push(['PostgreSQL', ['--store', DATABASE_URL, '--schema', schema]])
else if (process.env.CI === 'true') throw new Error('CI=true needs PostgreSQL for the interop clients on both stores')

needs("LeakIX's Python client: get_plugins, get_plugin and the bulk calls", works(PYTHON, ['--version']), `${PYTHON} (Debian python3)`, () => {
  describe.each(STORES)('against l9kit serve (%s store)', (_name, store) => {
    let service: { url: string; stop(): void }
    beforeAll(async () => (service = await serve(store)), 90_000)
    afterAll(() => service?.stop())

    it('get_plugins reads every plugin into its dataclass', () => {
      expect(python(service.url, '', 'get_plugins')).toEqual([
        'ok',
        'DotEnvConfigPlugin | Environment files (.env) served over HTTP. | 1 1 1',
        'RedisOpenPlugin | Events reported by the RedisOpenPlugin plugin. | 0 0 0',
        'httpx | Events reported by the httpx plugin. | 0 0 0',
      ])
    })

    it('get_plugin reads a known plugin as {name, description}, and an unknown one as the 404 error "Plugin not found"', () => {
      expect(python(service.url, KEYS.registered, 'get_plugin', 'DotEnvConfigPlugin')).toEqual(['ok DotEnvConfigPlugin | Environment files (.env) served over HTTP.'])
      expect(python(service.url, '', 'get_plugin', 'NoSuchPlugin')).toEqual(['error 404 "Plugin not found"'])
    })

    it('bulk_export reads each line as an aggregation by the owner library\'s rules; the query as its query classes write it', () => {
      const [head, ...rest] = python(service.url, KEYS.pro, 'bulk_export', '+plugin:RedisOpenPlugin')
      expect([head, ...rest.sort()]).toEqual(['ok 2', '192.0.2.21 2 2 6379,6380', '192.0.2.22 1 1 6379'])
      const [head2, ...rest2] = python(service.url, KEYS.pro, 'bulk_export', '+plugin:RedisOpenPlugin +time:>"2021-03-02"')
      expect([head2, ...rest2.sort()]).toEqual(['ok 2', '192.0.2.21 1 1 6380', '192.0.2.22 1 1 6379'])
      expect(python(service.url, KEYS.pro, 'bulk_export', '+plugin:NoSuchPlugin')).toEqual(['ok 0']) // 204
      expect(python(service.url, KEYS.registered, 'bulk_export', '*')[0]).toMatch(/^error 403 \{"title": "Forbidden", "description": "The bulk export is for pro keys/)
      expect(python(service.url, KEYS.pro, 'bulk_export', '+colour:red')[0]).toMatch(/^error 400 .*bad query at position 2/)
    })

    it('bulk_export_last_event keeps each resource\'s newest event; bulk_export_stream yields them line by line', () => {
      const [head, ...rest] = python(service.url, KEYS.pro, 'bulk_export_last_event', 'plugin:RedisOpenPlugin')
      expect([head, ...rest.sort()]).toEqual(['ok 2', '192.0.2.21 2021-03-03T00:00:00+00:00 RedisOpenPlugin 6380', '192.0.2.22 2021-03-05T00:00:00+00:00 RedisOpenPlugin 6379'])
      const streamed = python(service.url, KEYS.pro, 'bulk_export_stream', '*')
      expect(streamed.at(-1)).toBe('end')
      expect(streamed.slice(0, -1).sort()).toEqual(['192.0.2.11 1', '192.0.2.21 2', '192.0.2.22 1'])
    })

    it('bulk_service reads each line as an event', () => {
      expect(python(service.url, KEYS.pro, 'bulk_service', '+port:443 -country:Germany')).toEqual(['ok 1', '192.0.2.12 443 httpx'])
      expect(python(service.url, KEYS.pro, 'bulk_service', 'port:1')).toEqual(['ok 0'])
    })
  })
})

const goAvailable = spawnSync('go', ['version']).status === 0 && works('test', ['-d', GORILLA])
needs("LeakIX's Go client: GetChannel (gorilla/websocket)", goAvailable, 'the go command and Debian golang-github-gorilla-websocket-dev', () => {
  const binary = join(dir, 'channel')
  beforeAll(() => void buildGoProgram('go-channel', dir, 'channel'), 300_000)

  describe.each(STORES)('against l9kit serve (%s store)', (_name, store) => {
    let service: { url: string; stop(): void }
    beforeAll(async () => (service = await serve(store)), 90_000)
    afterAll(() => service?.stop())

    it('receives a leak ingested after it connected, decoded into the original types', async () => {
      const time = '2026-11-26T10:00:00.123456789Z'
      const ingest = () =>
        request(service.url, '/admin/events', {
          method: 'POST',
          headers: { authorization: `Bearer ${KEYS.admin}` },
          body: jsonl([makeEvent({ ip: '192.0.2.70' }), makeEvent({ event_type: 'leak', event_source: 'GoChannelTest', ip: '192.0.2.71', time })]),
        })
      const lines = await goChannel(binary, service.url, KEYS.pro, 1, ingest)
      expect(lines).toEqual(['connected', `event GoChannelTest 192.0.2.71 ${time}`])
    })

    it('is refused (403) with a key whose plan has no live stream', async () => {
      const lines = await goChannel(binary, service.url, KEYS.registered, 1, async () => undefined).catch((e: Error) => [e.message])
      expect(lines[0]).toMatch(/^refused 403 /)
    })
  })
})
