/** The matching index (match-index.ts) against the rule's plain scan (selectHooks), the oracle. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HookEventType, Severity } from '../../../src/schema/index.js'
import {
  canonicalResource,
  type HookRecord,
  MatchIndex,
  selectHooks,
  type WatchedResource,
} from '../../../src/service/index.js'

const OWNERS = ['alice', 'bob', 'carol']
const NETWORKS = ['0.0.0.0/0', '192.0.0.0/8', '192.0.2.0/24', '192.0.2.0/25', '192.0.2.128/25', '192.0.2.7/32', '198.51.100.0/22', '::/0', '2001:db8::/32', '2001:db8::/33', '2001:db8:8000::/33', '2001:db8::/127', '2001:db8::7/128', '::ffff:192.0.2.0/120']
const IPS = ['192.0.2.7', '192.0.2.200', '198.51.100.9', '203.0.113.1', '::ffff:192.0.2.7', '2001:db8::6', '2001:db8::7', '2001:db8:9000::1', '2001:db9::1', '']
const DOMAINS = ['example.com', 'www.example.com', 'com', 'example.org', 'b.a.example.com']
const HOSTS = ['example.com', 'www.example.com', 'x.www.example.com', 'notexample.com', 'b.a.example.com', 'a.example.com', 'example.org', '']
const RUNS = [null, 'r1', 'r2']

const resourceArb = fc.oneof(
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('network' as const), value: fc.constantFrom(...NETWORKS) }),
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('ip' as const), value: fc.constantFrom(...IPS.filter((i) => i !== '')) }),
  fc.record({ owner: fc.constantFrom(...OWNERS), type: fc.constant('domain' as const), value: fc.constantFrom(...DOMAINS) }),
)
const hookArb = fc.record({
  owner: fc.constantFrom(...OWNERS),
  minSeverity: fc.constantFrom<Severity>('critical', 'high', 'medium', 'low', 'info'),
  eventTypes: fc.subarray<HookEventType>(['leak', 'service'], { minLength: 1 }),
  run: fc.constantFrom(...RUNS),
  disabled: fc.boolean(),
})
const eventArb = fc.record({
  event_type: fc.constantFrom('leak', 'service', 'synack'),
  host: fc.constantFrom(...HOSTS),
  ip: fc.constantFrom(...IPS),
  leak: fc.record({ severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info', '', 'odd') }),
  tags: fc.constantFrom([], ['cdn'], ['l9kit-conform:r1'], ['l9kit-conform:r2', 'x'], ['l9kit-conform:r3']),
})

let ids = 0
const resource = (r: { owner: string; type: WatchedResource['type']; value: string }): WatchedResource => {
  const c = canonicalResource(r.type, r.value)
  if (!c.ok) throw new Error(c.reason)
  return { id: `res_${++ids}`, owner: r.owner, type: r.type, value: c.value }
}
const hook = (h: { owner: string; minSeverity: Severity; eventTypes: HookEventType[]; run: string | null; disabled: boolean }): HookRecord => ({
  id: `hook_${++ids}`,
  owner: h.owner,
  url: h.run === null ? 'https://hooks.example.net/a' : `https://hooks.example.net/a?l9kit-conform-run=${h.run}`,
  minSeverity: h.minSeverity,
  eventTypes: h.eventTypes,
  secret: 'whsec_' + Buffer.alloc(24).toString('base64'),
  state: h.disabled ? 'disabled' : 'active',
  disabledAt: h.disabled ? 1 : null,
  disabledReason: h.disabled ? 'test' : null,
})

describe('MatchIndex', () => {
  it('selects what the rule selects, in registry order, through any sequence of additions and removals (property)', () => {
    fc.assert(
      fc.property(fc.array(resourceArb, { maxLength: 12 }), fc.array(fc.nat(11), { maxLength: 6 }), fc.array(hookArb, { maxLength: 6 }), fc.array(eventArb, { minLength: 1, maxLength: 8 }), (specs, removals, hookSpecs, events) => {
        const resources = specs.map(resource)
        const hooks = hookSpecs.map(hook)
        const index = new MatchIndex()
        for (const r of resources) index.addResource(r)
        index.setHooks(hooks)
        const kept = [...resources]
        for (const i of removals) {
          if (i >= kept.length) continue
          index.removeResource(kept[i]!)
          kept.splice(i, 1)
        }
        for (const event of events) expect(index.select(event).map((h) => h.id)).toEqual(selectHooks(kept, hooks, event).map((h) => h.id))
      }),
      { numRuns: 300 },
    )
  })

  it('keeps conformance runs apart: a run’s tagged events reach only hooks whose URL names the run, and those hooks nothing else', () => {
    const index = new MatchIndex()
    index.addResource(resource({ owner: 'alice', type: 'network', value: '192.0.2.0/24' }))
    const plain = hook({ owner: 'alice', minSeverity: 'info', eventTypes: ['leak', 'service'], run: null, disabled: false })
    const mine = hook({ owner: 'alice', minSeverity: 'info', eventTypes: ['leak', 'service'], run: 'r1', disabled: false })
    index.setHooks([plain, mine])
    const event = (tags: string[]) => ({ event_type: 'service', host: '', ip: '192.0.2.1', tags })
    expect(index.select(event([])).map((h) => h.id)).toEqual([plain.id])
    expect(index.select(event(['l9kit-conform:r1'])).map((h) => h.id)).toEqual([mine.id])
    expect(index.select(event(['l9kit-conform:r2']))).toEqual([])
  })
})
