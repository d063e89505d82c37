/**
 * `l9kit hooks`: the receiver (`listen`) over real HTTP on 127.0.0.1, signed with the
 * independent `standardwebhooks` package; the API actions against the conformance fake's hook
 * API; and the whole loop: watch, add a hook on the receiver, ingest, see it arrive.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterEach, describe, expect, it } from 'vitest'
import { emptyEvent, type Event } from '../../src/schema/index.js'
import { generateSecret } from '../../src/webhooks/signature.js'
import { FAKE_ADMIN_TOKEN, FAKE_PRO_KEY } from '../conformance/fake/hooks.js'
import { type Fake, startFake } from '../conformance/fake/server.js'
import { running } from '../support/running.js'
import { runCli } from '../support/streams.js'

/** Runs `l9kit hooks listen --port 0 ...` in-process until stopped. */
function listen(argv: string[]) {
  const run = running(['hooks', 'listen', '--port', '0', ...argv])
  return { ...run, url: () => run.url(argv.includes('--json') ? 'stderr' : 'stdout') }
}

const cleanup: (() => Promise<unknown>)[] = []
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo()
})

async function started(argv: string[]) {
  const run = listen(argv)
  cleanup.push(() => run.stop())
  const url = await run.url()
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
  return { run, url: url! }
}

let serial = 0
/** A service event with these members (unique by summary). */
function makeEvent(fields: Partial<Event>): Event {
  return { ...emptyEvent(), event_type: 'service', event_source: 'http', summary: `event ${++serial}`, ...fields }
}
const leak = () => {
  const e = makeEvent({ event_type: 'leak', ip: '2001:db8::7', port: '9200', host: 'db.example.com' })
  Object.assign(e.leak, { severity: 'high', stage: 'open', type: 'database' })
  return e
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(5000) })
  await r.arrayBuffer()
  return r.status
}

describe('l9kit hooks listen', () => {
  it('prints one line per delivery and answers 204 to a valid signature, 401 to a bad one', async () => {
    const secret = generateSecret()
    const { run, url } = await started(['--secret', secret])
    expect(run.stdout.text).toContain('checking signatures')
    const body = JSON.stringify(leak())
    const stamp = new Date(Math.floor(Date.now() / 1000) * 1000)
    const signature = new Webhook(secret.slice('whsec_'.length)).sign('msg_good1', stamp, body)
    const headers = { 'webhook-id': 'msg_good1', 'webhook-timestamp': String(stamp.getTime() / 1000), 'webhook-signature': signature }
    expect(await post(url, body, headers)).toBe(204)
    const line = (await run.stdout.waitFor(/^msg_good1 .*$/m))[0]
    expect(line).toBe(`msg_good1  ${stamp.toISOString().replace('.000Z', 'Z')}  leak  [2001:db8::7]:9200  high  ok, signature valid`)

    const other = new Webhook(generateSecret().slice('whsec_'.length)).sign('msg_bad1', stamp, body)
    expect(await post(url, body, { ...headers, 'webhook-id': 'msg_bad1', 'webhook-signature': other })).toBe(401)
    expect((await run.stdout.waitFor(/^msg_bad1 .*$/m))[0]).toMatch(/ {2}REFUSED 401: bad signature: no v1 signature .* matches/)
    expect(await post(url, body)).toBe(401)
    expect((await run.stdout.waitFor(/^- .*REFUSED 401.*$/m))[0]).toContain('webhook-id, webhook-timestamp and webhook-signature are all needed')

    expect(await run.stop()).toBe(0)
    expect(run.stderr.text).toContain('stopped: 3 requests, 2 refused')
  })

  it('without a secret accepts any POST, refuses a body that is not JSON, and prints services without severity', async () => {
    const { run, url } = await started([])
    expect(run.stdout.text).toContain('signatures not checked')
    const service = makeEvent({ ip: '192.0.2.9', port: '443' })
    expect(await post(url, JSON.stringify(service), { 'webhook-id': 'msg_s', 'webhook-timestamp': '1700000000' })).toBe(204)
    expect((await run.stdout.waitFor(/^msg_s .*$/m))[0]).toBe('msg_s  2023-11-14T22:13:20Z  service  192.0.2.9:443  -  ok (signature not checked)')
    expect(await post(url, 'not json', { 'webhook-id': 'msg_x' })).toBe(400)
    expect((await run.stdout.waitFor(/^msg_x .*$/m))[0]).toContain('REFUSED 400: the body is not JSON')
    const r = await fetch(url, { signal: AbortSignal.timeout(5000) })
    expect(r.status).toBe(405)
  })

  it('--json prints the accepted bodies as JSON Lines on stdout, everything else on stderr', async () => {
    const { run, url } = await started(['--json'])
    const first = leak()
    const second = makeEvent({ host: 'b.example.com' })
    expect(await post(url, JSON.stringify(first), { 'webhook-id': 'msg_1' })).toBe(204)
    expect(await post(url, 'nope', { 'webhook-id': 'msg_2' })).toBe(400)
    expect(await post(url, JSON.stringify(second), { 'webhook-id': 'msg_3' })).toBe(204)
    await run.stderr.waitFor(/^msg_3 /m)
    expect(run.stdout.text.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual([first, second])
    expect(run.stderr.text).toMatch(/^listening on /)
  })

  it('refuses bad options with one line and exit 2', async () => {
    const bad = await runCli(['hooks', 'listen', '--secret', 'not-a-secret'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe("l9kit hooks listen: --secret must be 'whsec_' followed by base64 (the secret 'l9kit hooks add' printed)\n")
    expect((await runCli(['hooks', 'listen', '--port', '70000'])).stderr).toContain('--port must be an integer 0–65535')
    expect((await runCli(['hooks', 'listen', '--verbose'])).code).toBe(2)
    const { url } = await started([])
    const busy = await runCli(['hooks', 'listen', '--port', new URL(url).port])
    expect(busy.code).toBe(2)
    expect(busy.stderr).toMatch(/cannot listen on 127\.0\.0\.1:\d+: the address is already in use/)
  })
})

describe('l9kit hooks: the API actions', () => {
  async function fake(): Promise<Fake> {
    const f = await startFake()
    cleanup.push(() => f.close())
    return f
  }
  const api = (f: Fake, ...argv: string[]) => runCli(['hooks', ...argv, '--base-url', f.url, '--api-key', FAKE_PRO_KEY])

  it('add prints the hook and its secret once; list and remove; resources add, list and remove', async () => {
    const f = await fake()
    const added = await api(f, 'add', '--url', 'http://127.0.0.1:9/x', '--min-severity', 'high', '--event-types', 'leak,service')
    expect(added.code).toBe(0)
    const id = /^created (hook_\w+)$/m.exec(added.stdout)?.[1]
    expect(id).toBeDefined()
    expect(added.stdout).toMatch(/^ {2}secret {8}whsec_[A-Za-z0-9+/]+=*$/m)
    expect(added.stdout).toContain('  event_types   leak,service')
    const listed = await api(f, 'list')
    expect(listed.stdout).toBe(`${id}  high      leak,service  http://127.0.0.1:9/x\n`)
    expect(listed.stdout).not.toContain('whsec_')
    expect((await api(f, 'list', '--json')).stdout).toBe(`${JSON.stringify([{ id, url: 'http://127.0.0.1:9/x', min_severity: 'high', event_types: ['leak', 'service'] }])}\n`)
    expect((await api(f, 'remove', id!)).stdout).toBe(`removed ${id}\n`)
    const empty = await api(f, 'list')
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([0, '', 'no hooks\n'])

    const watched = await api(f, 'resources', 'add', 'Example.COM')
    expect(watched.stdout).toMatch(/^watching res_\w+ {2}domain {3}example\.com\n$/)
    expect((await api(f, 'resources', 'add', '2001:db8::/32')).stdout).toMatch(/network  2001:db8::\/32/)
    expect((await api(f, 'resources', 'add', '192.0.2.1')).stdout).toMatch(/ip       192\.0\.2\.1/)
    const resources = (await api(f, 'resources', 'list')).stdout.trimEnd().split('\n')
    expect(resources.map((l) => l.split(/ +/).slice(1))).toEqual([['domain', 'example.com'], ['network', '2001:db8::/32'], ['ip', '192.0.2.1']])
    const rid = resources[0]!.split(' ')[0]!
    expect((await api(f, 'resources', 'remove', rid)).code).toBe(0)
    expect((await api(f, 'resources', 'list')).stdout.split('\n')).toHaveLength(3)
  })

  it('escapes control characters the server sends (a disabled hook’s reason quotes its receiver) before they reach the terminal', async () => {
    const hook = { id: 'hook_x1', url: 'http://127.0.0.1:9/\u001b]0;owned\u0007', min_severity: 'high', event_types: ['leak'], state: 'disabled', disabled_at: '2026-11-27T00:00:00Z', disabled_reason: 'receiver said \u001b[2J gone (410)' }
    const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url?.startsWith('/api/hooks') ? [hook] : [])))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const listed = await runCli(['hooks', 'list', '--base-url', url, '--api-key', FAKE_PRO_KEY])
    expect(listed.code).toBe(0)
    expect(listed.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    expect(listed.stdout).toBe('hook_x1  high      leak          http://127.0.0.1:9/\\u001b]0;owned\\u0007  DISABLED: receiver said \\u001b[2J gone (410)\n')
  })

  it('prints the service’s {title, description} and exits 1 when it refuses; exit 2 for usage errors and an unreachable service', async () => {
    const f = await fake()
    const refused = await runCli(['hooks', 'list', '--base-url', f.url, '--api-key', 'fake-registered-key'])
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'l9kit hooks list: the service answered 403: Forbidden: hooks need a pro key\n' })
    const missing = await api(f, 'remove', 'hook_nope')
    expect([missing.code, missing.stderr]).toEqual([1, 'l9kit hooks remove: the service answered 404: Not Found: no hook hook_nope\n'])
    expect((await api(f, 'add', '--url', 'http://x/', '--min-severity', 'severe')).stderr).toBe(
      "l9kit hooks add: --min-severity must be one of critical, high, medium, low, info (got 'severe')\n",
    )
    expect((await api(f, 'add', '--url', 'http://x/', '--event-types', 'leak,synack')).stderr).toContain("'synack' is not one of leak, service")
    expect((await api(f, 'add')).stderr).toContain('--url is required')
    expect((await runCli(['hooks', 'list', '--base-url', f.url])).stderr).toContain('--api-key is required')
    expect((await runCli(['hooks', 'frobnicate'])).stderr).toContain("unknown action 'frobnicate'")
    expect((await runCli(['hooks'])).code).toBe(2)
    const gone = await startFake()
    await gone.close()
    const unreachable = await runCli(['hooks', 'list', '--base-url', gone.url, '--api-key', FAKE_PRO_KEY])
    expect(unreachable.code).toBe(2)
    expect(unreachable.stderr).toMatch(/^l9kit hooks list: GET http:\/\/127\.0\.0\.1:\d+\/api\/hooks: ECONNREFUSED\n$/)
  })

  it('--help lists every action and the exit codes', async () => {
    const help = await runCli(['hooks', '--help'])
    expect(help.code).toBe(0)
    for (const action of ['listen', 'add --url', 'list', 'remove ID', 'enable ID', 'resources add VALUE', 'deliveries ID', 'retry ID']) expect(help.stdout).toContain(action)
    expect(help.stdout).toContain('Exit codes: 0')
    expect((await runCli(['--help'])).stdout).toMatch(/^ {2}hooks +Receive hook deliveries/m)
  })

  it('the whole loop: watch a domain, add a hook on the receiver, ingest an event, see it arrive signed', async () => {
    const f = await fake()
    const { run, url } = await started([])
    expect((await api(f, 'resources', 'add', 'example.com')).code).toBe(0)
    const added = await api(f, 'add', '--url', url, '--min-severity', 'medium')
    const secret = /secret +(whsec_\S+)/.exec(added.stdout)![1]!
    // A second receiver that checks the secret printed by `add`.
    const checked = await started(['--secret', secret])
    expect((await api(f, 'add', '--url', checked.url, '--secret', secret)).code).toBe(0)
    const event = leak()
    const r = await fetch(`${f.url}/admin/events`, { method: 'POST', headers: { authorization: `Bearer ${FAKE_ADMIN_TOKEN}` }, body: `${JSON.stringify(event)}\n`, signal: AbortSignal.timeout(5000) })
    expect(await r.json()).toMatchObject({ accepted: 1 })
    expect((await run.stdout.waitFor(/^msg_\w+ .* leak {2}\[2001:db8::7\]:9200 {2}high {2}ok.*$/m))[0]).toBeTruthy()
    expect((await checked.run.stdout.waitFor(/^msg_\w+ .*$/m))[0]).toMatch(/high {2}ok, signature valid$/)
  })
})

describe('l9kit hooks against l9kit serve (the README’s four commands)', () => {
  it('watch a domain, add a hook on the receiver, ingest the README’s event with the demo admin token, see it arrive signed', async () => {
    const serve = running(['serve', '--port', '0'])
    cleanup.push(() => serve.stop())
    const base = await serve.url()
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const pro = /^ +pro +api-key: (\S+)/m.exec(serve.stdout.text)![1]!
    const admin = /Bearer (\S+)/.exec(serve.stdout.text)![1]!
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const event = /--data-binary '(\{.*\})'/.exec(readme)?.[1]
    expect(event, 'the README shows the event it ingests').toBeDefined()

    const service = ['--base-url', base!, '--api-key', pro]
    const watched = await runCli(['hooks', 'resources', 'add', 'example.com', ...service])
    expect(watched.stdout).toMatch(/^watching res_\w+ {2}domain {3}example\.com\n$/)
    const { run: receiver, url } = await started([])
    const added = await runCli(['hooks', 'add', '--url', url, ...service])
    expect(added.code, added.stderr).toBe(0)
    const secret = /secret +(whsec_\S+)/.exec(added.stdout)![1]!
    const checked = await started(['--secret', secret])
    expect((await runCli(['hooks', 'add', '--url', checked.url, '--secret', secret, ...service])).code).toBe(0)

    const r = await fetch(`${base}/admin/events`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: `${event}\n`, signal: AbortSignal.timeout(5000) })
    expect(await r.json()).toMatchObject({ accepted: 1, rejected: [] })
    const parsed = JSON.parse(event!) as { ip: string; port: string; leak: { severity: string } }
    const line = (await receiver.stdout.waitFor(/^msg_\S+ .*$/m))[0]
    expect(line).toMatch(new RegExp(`^msg_\\S+  \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ  leak  ${parsed.ip.replace(/\./g, '\\.')}:${parsed.port}  ${parsed.leak.severity}  ok`))
    expect((await checked.run.stdout.waitFor(/^msg_\S+ .*$/m))[0]).toMatch(/ok, signature valid$/)
    const listed = await runCli(['hooks', 'list', ...service])
    expect(listed.stdout.trimEnd().split('\n')).toHaveLength(2)

    // The other actions, on the first hook: its delivery, a re-send of nothing, a sample event.
    const id = /^created (hook_\w+)$/m.exec(added.stdout)![1]!
    const deliveries = await runCli(['hooks', 'deliveries', id, '--status', 'delivered', ...service])
    expect(deliveries.stdout).toMatch(/^msg_\S+ {2}delivered {2}attempts 1 {2}last 204 {2}[0-9a-f]{64} {2}\S+Z\n$/)
    expect((await runCli(['hooks', 'retry', id, ...service])).stdout).toBe('0 deliveries queued again\n')
    expect((await runCli(['hooks', 'enable', id, ...service])).stdout).toBe(`enabled ${id}\n`) // active already: nothing changes
    expect((await runCli(['hooks', 'test', id, ...service])).code).toBe(0)
    expect((await receiver.stdout.waitFor(/(^msg_\S+ .*\n){2}/m))[0]).toBeTruthy()
    expect((await runCli(['hooks', 'deliveries', id, '--status', 'lost', ...service])).stderr).toContain('--status must be one of pending, delivered, failed')
  })
})
