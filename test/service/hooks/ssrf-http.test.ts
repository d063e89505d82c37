/**
 * Issue 9, "Must show" (SSRF): without allow_private_hooks, private, loopback and other
 * non-public targets are refused at registration (400 with the reason) and at connection time
 * on the address actually connected to, so a name that resolves elsewhere after registration
 * (DNS rebinding) reaches nothing. Names are resolved by a test resolver (no /etc/hosts edits).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { CreatedHook, Delivery } from '../../../src/schema/index.js'
import { addressProblem, type Resolver, type RunningService } from '../../../src/service/index.js'
import { call, expectCall, HOOK_KEYS, hookServiceConfig, ingest, leak, startReceiver, serveHooks, waitFor, type Receiver } from './support.js'

/** The test's DNS: name → addresses, changeable during the test. */
const dns = new Map<string, string[]>([['loopback.test', ['127.0.0.1']], ['mixed.test', ['93.184.216.34', '10.1.2.3']]])
const resolve: Resolver = async (hostname) => {
  const found = dns.get(hostname)
  if (found === undefined) throw Object.assign(new Error(`no such name ${hostname}`), { code: 'ENOTFOUND' })
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

const REFUSED_AT_REGISTRATION = [
  'http://127.0.0.1/hook',
  'http://10.0.0.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://0.0.0.0/hook',
  'http://loopback.test/hook',
  'http://mixed.test/hook',
  'http://100.64.0.1/',
  'http://192.168.1.1/',
  'http://172.16.0.1/',
  'http://224.0.0.1/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://192.0.2.10/',
  'http://[2001:db8::1]/',
  'http://2130706433/', // 127.0.0.1 as one number: the URL parser spells it as a dotted quad
]

/** What a hook's target resolves to at connection time, after registration with a public address. */
const REBOUND = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '::ffff:127.0.0.1', '0.0.0.0']

let svc: RunningService
let receiver: Receiver
beforeAll(async () => {
  svc = await serveHooks({ config: hookServiceConfig({ allow_private_hooks: false }), resolve })
  receiver = await startReceiver()
})

describe('SSRF guard', () => {
  it.each(REFUSED_AT_REGISTRATION)('refuses %s at registration, with the reason', async (url) => {
    const answer = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url })
    expect(answer.status, answer.text).toBe(400)
    expect((answer.json as { description: string }).description).toMatch(/member \/url: refused target: .+ (is|carries|resolves to) /)
  })

  it('refuses other schemes, credentials and names that do not resolve', async () => {
    for (const [url, why] of [
      ['ftp://example.com/x', /scheme must be http or https/],
      ['file:///etc/passwd', /scheme must be http or https/],
      ['http://user:pw@93.184.216.34/', /user name or password/],
      ['http://nowhere.test/', /does not resolve/],
      ['not a url', /not an absolute URL/],
    ] as const) {
      const answer = await call(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url })
      expect(answer.status, url).toBe(400)
      expect((answer.json as { description: string }).description, url).toMatch(why)
    }
  })

  it('accepts a public target', async () => {
    dns.set('public.test', ['93.184.216.34'])
    await expectCall(svc, 'POST', '/api/hooks', HOOK_KEYS.alice, { url: 'https://public.test/hook' }, 201)
  })

  it('refuses at connection time when the name resolves to a refused address after registration (DNS rebinding)', async () => {
    const port = new URL(receiver.url).port
    await expectCall(svc, 'POST', '/api/resources', HOOK_KEYS.bob, { type: 'domain', value: 'rebind.example' }, 201)
    const hooks: CreatedHook[] = []
    for (const [i] of REBOUND.entries()) {
      dns.set(`rebind${i}.test`, ['93.184.216.34'])
      hooks.push(await expectCall<CreatedHook>(svc, 'POST', '/api/hooks', HOOK_KEYS.bob, { url: `http://rebind${i}.test:${port}/hook` }, 201))
    }
    // Now the names point at the receiver (loopback) and at other refused addresses.
    REBOUND.forEach((address, i) => dns.set(`rebind${i}.test`, [address]))
    await ingest(svc, [leak('www.rebind.example', '192.0.2.77', 'critical', 'rebound')])
    const failedOf = (hook: CreatedHook) => expectCall<Delivery[]>(svc, 'GET', `/api/hooks/${hook.id}/deliveries?status=failed`, HOOK_KEYS.bob, undefined, 200)
    for (const [i, hook] of hooks.entries()) {
      await waitFor(`hook ${i} parked`, async () => (await failedOf(hook)).length === 1)
      const [delivery] = await failedOf(hook)
      expect(delivery!.last_error, REBOUND[i]).toMatch(/^refused address: rebind\d\.test resolves to /)
      expect(delivery!.last_status).toBeNull()
    }
    expect(receiver.requests).toEqual([])
  })

  it('classifies with ipaddr.js ranges: public unicast allowed, the rest refused', () => {
    for (const ok of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) expect(addressProblem(ok), ok).toBeNull()
    for (const bad of ['127.0.0.2', '::', '100.127.255.255', 'ff02::1', '::ffff:10.0.0.1', '64:ff9b::a9fe:a9fe', '64:ff9b:1::1', '255.255.255.255']) {
      expect(addressProblem(bad), bad).not.toBeNull()
    }
    expect(addressProblem('169.254.169.254')).toMatch(/link-local/)
    expect(addressProblem('::ffff:127.0.0.1')).toMatch(/carries the IPv4 address 127\.0\.0\.1, which is a loopback address/)
    expect(addressProblem('::7f00:1')).toMatch(/IPv4-compatible address \(::\/96, deprecated\) carrying 127\.0\.0\.1/)
    expect(addressProblem('::808:808')).not.toBeNull() // even a public IPv4 inside: the form itself is refused
  })
})
