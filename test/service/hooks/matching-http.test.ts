/**
 * Issue 9, "Must show" (matching, body, signature) over real HTTP on 127.0.0.1: resources and
 * hooks registered through the API, events ingested through POST /admin/events, receivers
 * recording what arrives. A last "sentinel" event per hook proves nothing else is coming (each
 * hook's deliveries arrive in order).
 */
import { Webhook } from 'standardwebhooks'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CreatedHook, Resource } from '../../../src/schema/index.js'
import type { RunningService } from '../../../src/service/index.js'
import { request } from '../support.js'
import { expectCall, HOOK_KEYS, ingest, leak, type Receiver, service, serveHooks, startReceiver, waitFor } from './support.js'

let svc: RunningService
const receivers: Record<string, Receiver> = {}
const hooks: Record<string, CreatedHook> = {}

beforeAll(async () => {
  svc = await serveHooks()
  const watch = (key: string, type: string, value: string) => expectCall<Resource>(svc, 'POST', '/api/resources', key, { type, value }, 201)
  await watch(HOOK_KEYS.alice, 'domain', 'Example.com.')
  await watch(HOOK_KEYS.alice, 'network', '2001:DB8:1::/48')
  await watch(HOOK_KEYS.alice, 'domain', 'www.example.com') // overlaps example.com: still one delivery per hook
  await watch(HOOK_KEYS.bob, 'domain', 'example.org')
  const add = async (name: string, key: string, body: Record<string, unknown>) => {
    receivers[name] = await startReceiver()
    hooks[name] = await expectCall<CreatedHook>(svc, 'POST', '/api/hooks', key, { url: receivers[name]!.url, ...body }, 201)
  }
  await add('medium', HOOK_KEYS.alice, { min_severity: 'medium', event_types: ['leak'] })
  await add('low', HOOK_KEYS.alice, { min_severity: 'low' })
  await add('high', HOOK_KEYS.alice, { min_severity: 'high', event_types: ['leak'] })
  await add('service', HOOK_KEYS.alice, { event_types: ['service'] })
  await add('bob', HOOK_KEYS.bob, { min_severity: 'info', event_types: ['leak', 'service'] })

  const first = leak('www.example.com', '192.0.2.1', 'medium', 'm1')
  await ingest(svc, [
    first,
    leak('deep.sub.example.com', '192.0.2.2', 'medium', 'm2'),
    leak('v6.other.test', '2001:db8:1::5', 'medium', 'm3'),
    leak('notexample.com', '192.0.2.3', 'critical', 'lookalike'),
    leak('www.notexample.com', '::ffff:192.0.2.1', 'critical', 'lookalike2'),
    leak('v6.other.test', '2001:db8:2::5', 'critical', 'outside-network'),
    service('www.example.com', '192.0.2.1', 's1'),
    leak('example.com', '192.0.2.4', 'low', 'l1'),
  ])
  // Ingesting the same event again is a re-observation: no new delivery.
  const again = await ingest(svc, [first])
  expect(again.duplicates).toBe(1)
  await ingest(svc, [
    leak('end.example.com', '192.0.2.9', 'critical', 'sentinel'),
    service('end.example.com', '192.0.2.9', 'sentinel'),
    leak('end.example.org', '192.0.2.9', 'critical', 'sentinel'),
  ])
  for (const name of Object.keys(receivers)) {
    await waitFor(`the sentinel at ${name}`, () => receivers[name]!.requests.some((r) => r.json.summary === 'sentinel'))
  }
})

const summaries = (name: string) => receivers[name]!.requests.map((r) => r.json.summary)

describe('matching over HTTP', () => {
  it('a medium leak on a watched domain reaches the medium and low hooks, not the high one nor another user’s', () => {
    expect(summaries('medium')).toEqual(['m1', 'm2', 'm3', 'sentinel'])
    expect(summaries('low')).toEqual(['m1', 'm2', 'm3', 'l1', 'sentinel'])
    expect(summaries('high')).toEqual(['sentinel'])
    expect(summaries('bob')).toEqual(['sentinel'])
  })

  it('a subdomain and an IP inside a watched IPv6 network match; look-alikes do not', () => {
    expect(summaries('low')).toContain('m2')
    expect(summaries('low')).toContain('m3')
    for (const name of Object.keys(receivers)) {
      expect(summaries(name)).not.toContain('lookalike')
      expect(summaries(name)).not.toContain('lookalike2')
      expect(summaries(name)).not.toContain('outside-network')
    }
  })

  it('a service event reaches only hooks listing service', () => {
    expect(summaries('service')).toEqual(['s1', 'sentinel'])
    for (const name of ['medium', 'low', 'high']) expect(summaries(name)).not.toContain('s1')
  })

  it('the body is byte-identical to the stored event', async () => {
    for (const r of receivers.low!.requests) {
      const lookup = await request(svc.url, `/host/${r.json.ip}`, { headers: { 'api-key': HOOK_KEYS.alice } })
      expect(lookup.status).toBe(200)
      expect(lookup.text.includes(r.body), r.body).toBe(true)
    }
  })

  it('has the Standard Webhooks headers, and the signature verifies with the standardwebhooks package', () => {
    for (const name of Object.keys(receivers)) {
      const verifier = new Webhook(hooks[name]!.secret)
      for (const r of receivers[name]!.requests) {
        expect(r.headers['content-type']).toBe('application/json')
        expect(r.headers['user-agent']).toMatch(/^l9kit\/\d+\.\d+\.\d+/)
        expect(r.headers['webhook-id']).toMatch(/^msg_[0-9A-Za-z]+$/)
        expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/)
        const headers = {
          'webhook-id': String(r.headers['webhook-id']),
          'webhook-timestamp': String(r.headers['webhook-timestamp']),
          'webhook-signature': String(r.headers['webhook-signature']),
        }
        expect(verifier.verify(r.body, headers)).toEqual(JSON.parse(r.body))
        // Under another hook's secret it does not verify.
        const other = new Webhook(hooks[name === 'low' ? 'medium' : 'low']!.secret)
        expect(() => other.verify(r.body, headers)).toThrow()
      }
    }
  })

  it('lists the deliveries, delivered, with the webhook-id of each request', async () => {
    const list = await expectCall<{ id: string; status: string; attempts: number; event_fingerprint: string }[]>(
      svc, 'GET', `/api/hooks/${hooks.low!.id}/deliveries?status=delivered`, HOOK_KEYS.alice, undefined, 200,
    )
    expect(list.map((d) => d.id)).toEqual(receivers.low!.requests.map((r) => r.headers['webhook-id']))
    expect(list.map((d) => d.event_fingerprint)).toEqual(receivers.low!.requests.map((r) => r.json.event_fingerprint))
    expect(list.every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true)
  })
})
