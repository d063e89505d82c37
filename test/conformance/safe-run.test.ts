/**
 * Issue 33, "Must show" (conform): run against a reference service where the same pro key, and
 * another, already have hooks watching everything the run's events touch, the hook checks pass,
 * those hooks receive nothing from the run, and afterwards the server holds no event of the run.
 * Also: every event the run ingests uses only reserved documentation names and addresses, and
 * carries the run's tag.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hookPlan, runNonce } from '../../src/conformance/checks/hook-plan.js'
import { runSuite } from '../../src/conformance/index.js'
import type { Event } from '../../src/schema/index.js'
import { demoEvents, MemoryStore, parseConfig, type RunningService, startService } from '../../src/service/index.js'

const KEYS = { alice: 'alice-pro-key-0001', bob: 'bob-pro-key-00001', admin: 'admin-token-safe-01' }
const BROAD = [
  { type: 'network', value: '192.0.2.0/24' },
  { type: 'network', value: '198.51.100.0/24' },
  { type: 'network', value: '203.0.113.0/24' },
  { type: 'network', value: '2001:db8::/32' },
  { type: 'domain', value: 'test' },
  { type: 'domain', value: 'example' },
]

let service: RunningService
let store: MemoryStore
const received: string[] = []
let receiver: ReturnType<typeof createServer>

beforeAll(async () => {
  receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      received.push(req.url ?? '')
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`
  const secret = 'whsec_' + Buffer.alloc(32, 8).toString('base64')
  const everything = { url: '', min_severity: 'info', event_types: ['leak', 'service'], secret }
  const config = parseConfig(
    JSON.stringify({
      keys: [
        { name: 'alice', key: KEYS.alice, plan: 'pro', resources: BROAD, hooks: [{ ...everything, url: `${url}/alice-existing` }] },
        { name: 'bob', key: KEYS.bob, plan: 'pro', resources: BROAD, hooks: [{ ...everything, url: `${url}/bob-existing` }] },
      ],
      admin_token: KEYS.admin,
      plans: { anonymous: { rate: null }, registered: { rate: null }, pro: { rate: null } },
      allow_private_hooks: true,
    }),
    'safe-run.json',
  )
  store = new MemoryStore()
  store.ingest(demoEvents())
  service = await startService({ store, config, host: '127.0.0.1', port: 0 })
})

afterAll(async () => {
  await service?.close(100)
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

describe('conform on a server that is in use', () => {
  it('alerts no hook but its own, and leaves no event of the run behind', { timeout: 180_000 }, async () => {
    // The existing hooks do work: an ordinary event in the watched ranges reaches both.
    store.ingest([{ event_type: 'service', event_source: 'Safe', host: 'before.example', ip: '192.0.2.99', port: '1', time: '2024-01-01T00:00:00Z' }])
    while (received.length < 2) await new Promise((r) => setTimeout(r, 10))
    expect(received.sort()).toEqual(['/alice-existing', '/bob-existing'])
    received.length = 0

    const report = await runSuite({
      baseUrl: service.url,
      proKey: KEYS.alice,
      adminToken: KEYS.admin,
      hookReceiver: true,
      allowWrites: true,
      rate: 'auto',
      seed: 4242,
      checks: ['hook-delivered', 'hook-severity-floor', 'hook-event-types', 'hook-unwatched', 'hook-look-alikes', 'hook-order', 'hook-body', 'hook-signature-headers', 'hook-signature-valid'],
    })
    // The key watches everything: no planned event is outside its resources, so those two checks have nothing to judge.
    const notPassed = report.results.filter((r) => r.status !== 'passed')
    expect(notPassed.map((r) => [r.id, r.status])).toEqual([
      ['hook-unwatched', 'skipped'],
      ['hook-look-alikes', 'skipped'],
    ])
    expect(notPassed[0]!.message).toMatch(/\(the key already watched 6 resources, which cover the events planned for this\)$/)
    const note = /^wrote 16 test events tagged (l9kit-conform:\w+); deleted 16 with DELETE \/admin\/events\?tag=\1$/.exec(report.notes.join('\n'))
    expect(note, report.notes.join('\n')).not.toBeNull()
    const tag = note![1]!

    // Deliveries to the existing hooks would have come with the run's (the suite waits a second past its last one).
    await new Promise((r) => setTimeout(r, 300))
    expect(received).toEqual([])
    // No event of the run is left: not under .test, not at any address the run used, none with its tag.
    const tagged = (lookup: { services: readonly Uint8Array[]; leaks: readonly Uint8Array[] } | null) =>
      [...(lookup?.services ?? []), ...(lookup?.leaks ?? [])].map((b) => JSON.parse(Buffer.from(b).toString('utf8')) as Event).filter((e) => e.tags.includes(tag))
    expect(tagged(store.domain('test'))).toEqual([])
    for (const ip of ['192.0.2.10', '192.0.2.11', '192.0.2.12', '203.0.113.5', '2001:db8::ab:77']) expect(tagged(store.host(ip)), ip).toEqual([])
    expect(store.deleteTagged(tag)).toBe(0)
  })
})

describe('what a run ingests', () => {
  const DOC_V4 = [/^192\.0\.2\.\d+$/, /^198\.51\.100\.\d+$/, /^203\.0\.113\.\d+$/]
  const reservedName = (name: string) => name === '' || /(^|\.)(test|example)$/.test(name)
  const reservedIp = (ip: string) => ip === '' || DOC_V4.some((re) => re.test(ip)) || /^2001:db8:/i.test(ip)

  it('uses only reserved documentation names and addresses, and carries the run’s tag, for any seed', () => {
    for (let seed = 0; seed < 60; seed++) {
      const run = runNonce(seed, 1_700_000_000_000 + seed)
      const plan = hookPlan(seed, run)
      expect(plan.tag).toBe(`l9kit-conform:${run}`)
      for (const { event } of plan.events) {
        const where = `seed ${seed}, event ${event.event_fingerprint.slice(0, 8)}`
        expect(event.tags, where).toContain(plan.tag)
        expect(reservedName(event.host) && reservedName(event.reverse) && reservedName(event.ssl.certificate.cn), where).toBe(true)
        expect(event.ssl.certificate.domain.every(reservedName), where).toBe(true)
        expect(reservedIp(event.ip), where).toBe(true)
        expect(['', '192.0.2.0/24', '203.0.113.0/24', '2001:db8::/32'], where).toContain(event.network.network)
        expect(event.network.asn === 0 || (event.network.asn >= 64496 && event.network.asn <= 64511), where).toBe(true)
        expect(event.mac === '' || event.mac.startsWith('00:00:5e:00:53:'), where).toBe(true)
        // No other dotted-quad address hides anywhere in the document's text.
        for (const quad of JSON.stringify(event).match(/(?<![\d.])\d{1,3}(?:\.\d{1,3}){3}(?![\d.])/g) ?? []) expect(reservedIp(quad), `${where}: ${quad}`).toBe(true)
      }
      expect(plan.resources.every((r) => (r.type === 'domain' ? reservedName(r.value) : /^2001:(0)?db8/i.test(r.value)))).toBe(true)
    }
  })
})
