/**
 * LeakIX's own Go client (../shared/peers/LeakIXClient, its `leakix` tool, unchanged), built
 * offline in GOPATH mode against the original Go `l9format` it requires, against `l9kit serve`
 * on the memory store and on PostgreSQL: search through every page (pages of 3 here), a
 * phrase, the text template, a rate-limited key that meets 429s (`x-limited-for`, read with
 * time.ParseDuration), and `-r`, the live stream, in both scopes, with base64 raw credentials
 * decoded into the original `[]byte` and written back. Expectations come from the loaded events
 * (fixture.ts); a planted fault (a search that drops its last page) must fail them.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Event } from '../../src/schema/index.js'
import { run } from '../languages/support.js'
import { jsonl, makeEvent } from '../service/support.js'
import { fileTempDir } from '../support/temp.js'
import { countingProxy, droppingLastPage } from './peers/fault.js'
import { fixtureEvents, hasPhrase, newestFirst, RAW } from './peers/fixture.js'
import { buildLeakixTool, goTools, needsPeers } from './peers/peers.js'
import { admin, KEYS, serve, type Service, stores } from './peers/service.js'

const PAGE = 3
const dir = fileTempDir('l9kit-peers-go-')

/** An event as the tool's `-j` prints it: the original L9Event marshalled again. */
interface GoEvent {
  event_source: string
  ip: string
  port: string
  time: string
  service: { credentials: { raw: string | null } }
}
const row = (e: Pick<Event, 'event_source' | 'ip' | 'port' | 'time'>) => `${e.event_source} ${e.ip} ${e.port} ${e.time}`

const children = new Set<ChildProcess>()
afterAll(() => {
  for (const child of children) child.kill('SIGKILL')
})

needsPeers("LeakIX's Go client: the leakix tool's search and live stream", ['LeakIXClient', 'l9format'], goTools, (peers) => {
  let tool: string
  beforeAll(() => void (tool = buildLeakixTool(peers)), 600_000)

  /** The tool's search: its events (`-j`), or its output lines with a template. */
  async function search(url: string, key: string, scope: string, q: string, template?: string): Promise<{ lines: string[]; stderr: string }> {
    const args = ['-e', url, '-k', key, '-s', scope, '-q', q, '-l', '1000', ...(template === undefined ? ['-j'] : ['-t', template])]
    const result = await run(tool, args, { timeout: 120_000 })
    expect(result.code).toBe(0)
    return { lines: result.stdout === '' ? [] : result.stdout.trimEnd().split('\n'), stderr: result.stderr }
  }
  const rows = (lines: string[]) => lines.map((l) => row(JSON.parse(l) as GoEvent))

  describe.each(stores())('against l9kit serve (%s store)', (_name, storeArgs) => {
    let service: Service
    const events = fixtureEvents()
    const expected = (scope: string, match: (e: Event) => boolean) => newestFirst(events.filter((e) => e.event_type === scope && match(e))).map(row)
    beforeAll(async () => (service = await serve(dir, storeArgs(), jsonl(events), PAGE)), 120_000)
    afterAll(() => service?.stop())

    it('searches every page of * in each scope, each event decoded into the original types', async () => {
      for (const scope of ['service', 'leak']) {
        const out = await search(service.url, KEYS.pro, scope, '*')
        expect(out.stderr).toBe('')
        expect(rows(out.lines), scope).toEqual(expected(scope, () => true))
      }
      expect(expected('service', () => true).length).toBeGreaterThan(2 * PAGE)
    }, 120_000)

    it('a phrase, a port range and the text template', async () => {
      const phrase = await search(service.url, KEYS.pro, 'service', '+"Location: /home/"')
      expect(rows(phrase.lines)).toEqual(expected('service', (e) => hasPhrase(e, 'Location: /home/')))
      const ports = await search(service.url, KEYS.pro, 'service', '+port:>1000 -port:65535')
      expect(rows(ports.lines)).toEqual(expected('service', (e) => Number(e.port) > 1000 && e.port !== '65535'))
      const text = await search(service.url, KEYS.pro, 'leak', '+plugin:GitConfigHttpPlugin', '{{ .Ip }}:{{ .Port }} {{ .Leak.Severity }} {{ .EventSource }}')
      expect(text.lines).toEqual(newestFirst(events.filter((e) => e.event_source === 'GitConfigHttpPlugin')).map((e) => `${e.ip}:${e.port} ${e.leak.severity} ${e.event_source}`))
    }, 120_000)

    it('reads every page with a rate-limited key, through its 429s', async () => {
      const proxy = await countingProxy(service.url)
      try {
        const out = await search(proxy.url, KEYS.registered, 'service', '*')
        expect(rows(out.lines)).toEqual(expected('service', () => true))
        expect(proxy.statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
        expect(proxy.statuses.filter((s) => s === 200).length).toBe(Math.ceil(expected('service', () => true).length / PAGE) + 1)
      } finally {
        proxy.close()
      }
    }, 180_000)

    it('a planted fault (a search that drops its last page) fails the same judgement', async () => {
      const proxy = await droppingLastPage(service.url)
      try {
        const out = await search(proxy.url, KEYS.pro, 'service', '*')
        expect(() => expect(rows(out.lines)).toEqual(expected('service', () => true))).toThrow()
      } finally {
        proxy.close()
      }
    }, 120_000)

    /**
     * `leakix -r -s SCOPE -l 1 -j`: follows the live stream until one event came. Events are
     * ingested every half second until then (the tool says nothing when it has connected).
     */
    async function live(scope: 'service' | 'leak', make: (n: number) => Event): Promise<{ got: GoEvent; sent: Event[] }> {
      const child = spawn(tool, ['-e', service.url, '-k', KEYS.pro, '-s', scope, '-r', '-l', '1', '-j'], { stdio: ['ignore', 'pipe', 'pipe'] })
      children.add(child)
      let out = ''
      let err = ''
      child.stdout.on('data', (c: Buffer) => (out += c.toString()))
      child.stderr.on('data', (c: Buffer) => (err += c.toString()))
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve))
      const sent: Event[] = []
      const deadline = Date.now() + 60_000
      while (!out.includes('\n') && child.exitCode === null && Date.now() < deadline) {
        const event = make(sent.length)
        sent.push(event)
        expect((await admin(service.url, 'POST', jsonl([event]))).body.accepted).toBe(1)
        await Promise.race([closed, new Promise((r) => setTimeout(r, 500))])
      }
      const code = await Promise.race([closed, new Promise<null>((r) => setTimeout(() => r(null), 10_000))])
      expect(code, err).toBe(0)
      return { got: JSON.parse(out.trimEnd().split('\n')[0]!) as GoEvent, sent }
    }

    it('-r in leak scope: a leak with base64 raw credentials, decoded into []byte and written back the same', async () => {
      const { got, sent } = await live('leak', (n) =>
        makeEvent({ event_type: 'leak', event_source: 'LiveLeakPlugin', ip: `198.51.100.${n + 1}`, port: '9200', time: new Date(Math.floor(Date.now() / 1000) * 1000 - n * 1000).toISOString().replace('.000Z', 'Z'), leak: { ...makeEvent({}).leak, severity: 'critical' }, service: { ...makeEvent({}).service, credentials: { noauth: false, username: 'u', password: '', key: '', raw: RAW } } }),
      )
      expect(sent.map(row)).toContain(row(got))
      expect(got.service.credentials.raw).toBe(RAW)
      expect(Buffer.from(got.service.credentials.raw!, 'base64').toString('latin1')).toBe(Buffer.from(RAW, 'base64').toString('latin1'))
    }, 90_000)

    it('-r in service scope: a service event', async () => {
      const { got, sent } = await live('service', (n) => makeEvent({ event_source: 'LiveServicePlugin', ip: `198.51.100.${100 + n}`, port: '22', time: new Date(Math.floor(Date.now() / 1000) * 1000 - n * 1000).toISOString().replace('.000Z', 'Z') }))
      expect(sent.map(row)).toContain(row(got))
      expect(got.event_source).toBe('LiveServicePlugin')
    }, 90_000)

    it('-r with a key whose plan has no live stream: the tool stops on the refused handshake', async () => {
      const result = await run(tool, ['-e', service.url, '-k', KEYS.registered, '-s', 'leak', '-r', '-l', '1', '-j'], { timeout: 30_000 })
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/Websocket connection error:\n.*websocket: bad handshake/)
    }, 60_000)

    it('ingest refuses raw credentials that are not base64 (what the Go client would stop on), naming the member', async () => {
      const bad = makeEvent({ event_type: 'leak', event_source: 'X', ip: '198.51.100.250', service: { ...makeEvent({}).service, credentials: { noauth: false, username: '', password: '', key: '', raw: 'SSH-2.0-OpenSSH_9.6' } } })
      const answer = await admin(service.url, 'POST', jsonl([bad]))
      expect(answer.body.accepted).toBe(0)
      expect(answer.body.rejected[0].errors[0]).toMatchObject({ code: 'bad_base64', pointer: '/service/credentials/raw' })
    }, 30_000)
  })
})
