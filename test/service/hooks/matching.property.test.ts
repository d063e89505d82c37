/**
 * Issue 9, "Must show" (property): for any generated resources, hooks and sequence of ingested
 * events (with repeats and failing attempts), what each hook receives — repeats of one delivery
 * collapsed — is exactly, and in order, what the matching rule selects. The oracle below is
 * written from the rule's text with hand-made tables (not with match.ts). The pipeline is the
 * real one in process: MemoryStore ingest → queueIngested → MemoryHookStore → Dispatcher, with
 * the HTTP attempt replaced by a recorder that fails when told to.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HookEventType, ResourceType, Severity } from '../../../src/schema/index.js'
import { canonicalResource, Dispatcher, MemoryHookStore, MemoryStore, queueIngested } from '../../../src/service/index.js'

/** Event IP spellings and the address each stands for. */
const IPS: [text: string, canonical: string][] = [
  ['192.0.2.1', '192.0.2.1'],
  ['::ffff:192.0.2.1', '192.0.2.1'],
  ['192.0.2.200', '192.0.2.200'],
  ['198.51.100.7', '198.51.100.7'],
  ['2001:db8::1', '2001:db8::1'],
  ['2001:DB8:0:0:0:0:0:1', '2001:db8::1'],
  ['2001:db8:1::9', '2001:db8:1::9'],
]
/** Networks (as a user may type them) and the canonical addresses above each contains. */
const NETWORKS: [text: string, members: string[]][] = [
  ['192.0.2.0/24', ['192.0.2.1', '192.0.2.200']],
  ['192.0.2.77/25', ['192.0.2.1']],
  ['::ffff:192.0.2.0/120', ['192.0.2.1', '192.0.2.200']],
  ['2001:db8::/32', ['2001:db8::1', '2001:db8:1::9']],
  ['2001:DB8::/48', ['2001:db8::1']],
  ['198.51.100.0/24', ['198.51.100.7']],
]
const HOSTS = ['example.com', 'www.example.com', 'a.b.example.com', 'WWW.Example.COM', 'notexample.com', 'example.org', 'xample.com', 'www.example.com.']
const DOMAINS = ['example.com', 'Www.Example.com', 'example.org', 'com', 'b.example.com']
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
const OWNERS = ['alice', 'bob']

type Res = { owner: string; type: ResourceType; value: string }
type HookSpec = { owner: string; minSeverity: Severity; eventTypes: HookEventType[] }
type Ev = { type: 'leak' | 'service'; host: string; ip: number; severity: string }

const resourceArb: fc.Arbitrary<Res> = fc.oneof(
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('domain' as const), value: fc.constantFrom(...DOMAINS) }),
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('ip' as const), value: fc.constantFrom(...IPS.map((i) => i[0])) }),
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('network' as const), value: fc.constantFrom(...NETWORKS.map((n) => n[0])) }),
)
const hookArb: fc.Arbitrary<HookSpec> = fc.record({
  owner: fc.constantFrom(...OWNERS),
  minSeverity: fc.constantFrom(...SEVERITIES),
  eventTypes: fc.subarray(['leak', 'service'] as HookEventType[], { minLength: 1 }),
})
const eventArb: fc.Arbitrary<Ev> = fc.record({
  type: fc.constantFrom('leak' as const, 'service' as const),
  host: fc.constantFrom(...HOSTS),
  ip: fc.nat(IPS.length - 1),
  severity: fc.constantFrom(...SEVERITIES, ''),
})

/** The rule, from its text. */
function oracleCovers(r: Res, e: Ev): boolean {
  const host = e.host.toLowerCase().replace(/\.$/, '')
  const ip = IPS[e.ip]![1]
  if (r.type === 'domain') {
    const d = r.value.toLowerCase()
    return host === d || host.endsWith('.' + d)
  }
  if (r.type === 'ip') return IPS.find((i) => i[0] === r.value)![1] === ip
  return NETWORKS.find((n) => n[0] === r.value)![1].includes(ip)
}
function oracleWants(h: HookSpec, e: Ev): boolean {
  if (!h.eventTypes.includes(e.type)) return false
  if (e.type === 'service') return true
  const rank = (s: string) => (SEVERITIES.indexOf(s as Severity) === -1 ? 4 : SEVERITIES.indexOf(s as Severity))
  return rank(e.severity) <= rank(h.minSeverity)
}

const toDoc = (e: Ev, n: number) => ({
  event_type: e.type,
  event_source: 'PropertyTest',
  host: e.host,
  ip: IPS[e.ip]![0],
  port: String(1000 + n), // a distinct identity per generated event
  time: '2024-05-01T00:00:00Z',
  summary: `event ${n}`,
  ...(e.type === 'leak' ? { leak: { severity: e.severity, stage: 'open' } } : {}),
})

describe('matching property', () => {
  it('each hook receives exactly, in order, what the rule selects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(resourceArb, { maxLength: 5 }),
        fc.array(hookArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(eventArb, fc.boolean()), { maxLength: 25 }),
        fc.array(fc.boolean(), { maxLength: 10 }),
        async (resources, hookSpecs, events, failures) => {
          const store = new MemoryStore()
          const hooks = new MemoryHookStore()
          const stop = queueIngested(store, hooks)
          for (const r of resources) {
            const c = canonicalResource(r.type, r.value)
            if (!c.ok) throw new Error(c.reason)
            hooks.addResource(r.owner, r.type, c.value)
          }
          const records = hookSpecs.map((h) => hooks.addHook({ ...h, url: 'http://recorder.invalid/', secret: 'whsec_' + Buffer.alloc(32).toString('base64') }))
          const received = new Map<string, { id: string; summary: string }[]>(records.map((h) => [h.id, []]))
          let attempt = 0
          const dispatcher = new Dispatcher(hooks, {
            settings: { timeoutMs: 1_000, retryScheduleMs: Array(999).fill(0), retryAfterMaxMs: 0, queueLimit: 10_000 },
            allowPrivate: true,
            send: async (c) => {
              received.get(c.delivery.hookId)!.push({ id: c.delivery.id, summary: JSON.parse(c.body).summary })
              // The pattern ends with a success, so every delivery gets through eventually.
              const slot = attempt++ % (failures.length + 1)
              const fail = slot < failures.length && failures[slot]!
              return fail ? { ok: false, status: 500, error: 'HTTP 500' } : { ok: true, status: 200, error: null }
            },
          })
          dispatcher.start()
          // Ingest in two batches; some events are sent twice (a re-observation: no new delivery).
          const docs = events.flatMap(([e, repeat], n) => (repeat ? [toDoc(e, n), toDoc(e, n)] : [toDoc(e, n)]))
          store.ingest(docs.slice(0, docs.length >> 1))
          store.ingest(docs.slice(docs.length >> 1))
          for (let i = 0; i < 500 && (hooks.pendingCount() > 0 || dispatcher.active > 0); i++) await new Promise((r) => setTimeout(r, 2))
          expect(hooks.pendingCount()).toBe(0)
          await dispatcher.close(100)
          stop()
          for (const [i, h] of hookSpecs.entries()) {
            const expected = events
              .map(([e], n) => [e, n] as const)
              .filter(([e]) => oracleWants(h, e) && resources.some((r) => r.owner === h.owner && oracleCovers(r, e)))
              .map(([, n]) => `event ${n}`)
            const seen = new Set<string>()
            const got = received.get(records[i]!.id)!.filter((x) => !seen.has(x.id) && seen.add(x.id)).map((x) => x.summary)
            expect(got).toEqual(expected)
          }
        },
      ),
      { numRuns: 60 },
    )
  }, 180_000)
})
