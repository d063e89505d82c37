/**
 * What the hook checks ask of a server: the watched resources, the hooks, and the events
 * ingested, with what each hook must receive. Names carry a per-run nonce, so a second run
 * against the same server ingests new events, not duplicates (which are never delivered).
 *
 * Safe to point at a server that is not ours (issue 33): every name and address an event holds
 * is a reserved documentation one (`.test` names, 192.0.2.0/24, 203.0.113.0/24, 2001:db8::/32,
 * the documentation AS numbers and MAC block), every event carries the tag `l9kit-conform:RUN`,
 * and every hook's URL names the run (`?l9kit-conform-run=RUN`): the reference service delivers
 * a run's tagged events to that run's hooks only, and deletes them with DELETE
 * /admin/events?tag=… when the run ends (docs/conformance.md).
 *
 * The rule (issue 9, docs/hooks.md): an event goes to a hook when one of its owner's
 * resources covers it (a domain covers itself and names below it, never look-alikes such as
 * `notexample.com` for `example.com`; a network covers the addresses in it), the hook lists
 * its type, and, for a leak, its severity is at or above the hook's `min_severity`.
 */
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import ipaddr from 'ipaddr.js'
import type { Event, HookEventType, HookRequest, ResourceRequest, Severity } from '../../schema/index.js'
import { SEVERITIES } from '../../schema/index.js'
import { generateSecret } from '../../webhooks/signature.js'
import { strictEvent } from '../gen/event.js'
import { ipKey, withinDomain } from './lib.js'

/** Why a hook must not receive an event; each reason is judged by its own check. */
export type Exclusion = 'unwatched' | 'look-alike' | 'event-type' | 'severity'

export interface PlannedHook {
  /** The receiver path it is registered with (`/name`). */
  name: string
  request: HookRequest & { min_severity: Severity; event_types: HookEventType[] }
}

export interface PlannedEvent {
  /** Position in the ingest body (0 first). */
  index: number
  event: Event
  /** Set when the host is a look-alike of the watched domain. */
  lookAlike: boolean
}

export interface HookPlan {
  /** The run's name (its nonce): in the tag of every event and the URL of every hook. */
  run: string
  /** `l9kit-conform:RUN`, in the `tags` of every event the run ingests. */
  tag: string
  domain: string
  network: string
  /** A watched IP address, canonical (it is registered in another spelling). */
  ip: string
  resources: ResourceRequest[]
  hooks: PlannedHook[]
  events: PlannedEvent[]
  /**
   * Resources the pro key watched before the run (read with GET /api/resources): they cover
   * events for the run's hooks too, so what a hook must receive counts them.
   */
  existing: ResourceRequest[]
}

const rank = (s: string) => SEVERITIES.indexOf(s as Severity)

/** A watched address outside the watched network (whose third group is never 0), and the spelling it is registered in: any spelling must match. */
const WATCHED_IP = '2001:db8::ab:77'
const WATCHED_IP_SPELLING = '2001:0DB8:0000:0000:0000:0000:00AB:0077'

/** Tag prefix of a run's events, and the hook URL parameter naming the run (the reference service's rule, docs/hooks.md). */
export const RUN_TAG_PREFIX = 'l9kit-conform:'
export const RUN_PARAMETER = 'l9kit-conform-run'

/** A hook URL on the receiver, naming the run. */
export const runHookUrl = (base: string, hook: PlannedHook, run: string) => `${base}/${hook.name}?${RUN_PARAMETER}=${encodeURIComponent(run)}`

/** The plan of one run: `seed` picks the generated event contents, `nonce` makes the names new. */
export function hookPlan(seed: number, nonce: string): HookPlan {
  const domain = `${nonce}-watch.test`
  const net = `2001:db8:${((parseInt(nonce.slice(-4), 36) % 0xffff) + 1).toString(16)}`
  const network = `${net}::/48`
  const hooks: PlannedHook[] = [
    { name: 'medium-leaks', request: { url: '', min_severity: 'medium', event_types: ['leak'] } },
    { name: 'low-all', request: { url: '', min_severity: 'low', event_types: ['leak', 'service'], secret: generateSecret() } },
    { name: 'high-leaks', request: { url: '', min_severity: 'high', event_types: ['leak'] } },
    { name: 'services', request: { url: '', min_severity: 'critical', event_types: ['service'] } },
    // Matches nothing the run ingests (no critical leak is watched): must receive nothing.
    { name: 'critical-leaks', request: { url: '', min_severity: 'critical', event_types: ['leak'] } },
  ]
  // type, host, ip, severity, look-alike
  const rows: [HookEventType, string, string, Severity | '', boolean][] = [
    ['leak', `api.${domain}`, '192.0.2.10', 'medium', false],
    ['leak', domain, '192.0.2.11', 'low', false],
    ['service', `www.${domain}`, '192.0.2.12', '', false],
    ['leak', `deep.api.${domain}`, '192.0.2.10', 'high', false],
    ['leak', domain, '192.0.2.11', 'info', false],
    ['leak', `not${domain}`, '203.0.113.5', 'high', true],
    ['leak', `${nonce}-other.test`, '203.0.113.6', 'critical', false],
    ['leak', `${nonce}-net.test`, `${net}:1::17`, 'medium', false],
    ['service', `${domain}.evil.test`, '203.0.113.7', '', true],
    ['leak', `mail.${domain}`, `${net}:2::18`, 'high', false],
    ['service', `${nonce}-net.test`, `${net}:3::19`, '', false],
    ['leak', `x${domain}`, '203.0.113.8', 'medium', true],
    ['leak', `www.${domain}`, '192.0.2.12', 'low', false],
    ['service', `${nonce}-other.test`, '203.0.113.9', '', false],
    ['leak', `api.${domain}`, '192.0.2.10', 'medium', false],
    ['leak', `${nonce}-ip.test`, WATCHED_IP, 'high', false],
  ]
  const generated = {
    leak: fc.sample(strictEvent({ type: 'leak' }), { seed, numRuns: rows.length }),
    service: fc.sample(strictEvent({ type: 'service' }), { seed: seed ^ 0x5eed, numRuns: rows.length }),
  }
  const tag = `${RUN_TAG_PREFIX}${nonce}`
  const events = rows.map(([type, host, ip, severity, lookAlike], index): PlannedEvent => {
    const event = generated[type][index]!
    event.host = host
    event.ip = ip
    event.event_fingerprint = createHash('sha256').update(`${nonce}/${index}`).digest('hex')
    if (type === 'leak') event.leak.severity = severity
    reserveNames(event, nonce, index)
    event.tags = [...event.tags.filter((t) => !t.startsWith(RUN_TAG_PREFIX)), tag]
    return { index, event, lookAlike }
  })
  const resources: ResourceRequest[] = [
    { type: 'domain', value: domain },
    { type: 'network', value: network },
    { type: 'ip', value: WATCHED_IP_SPELLING },
  ]
  return { run: nonce, tag, domain, network, ip: WATCHED_IP, resources, hooks, events, existing: [] }
}

/**
 * Puts reserved documentation values in every member of a generated event that names a host,
 * an address, a network or an AS (the generators draw real-looking ones): `reverse` and the
 * certificate's names under the run's `.test` names, the network block around `ip` (192.0.2.0/24,
 * 203.0.113.0/24, 2001:db8::/32), an AS number of RFC 5398 (64496–64511) and a MAC of RFC 7042's
 * documentation block (00:00:5e:00:53:xx). Empty members stay empty.
 */
export function reserveNames(event: Event, nonce: string, index: number): void {
  const name = `e${index}.${nonce}-names.test`
  if (event.reverse !== '') event.reverse = name
  const certificate = event.ssl.certificate
  if (certificate.cn !== '') certificate.cn = name
  certificate.domain = certificate.domain.map((_, i) => `d${i}.${name}`)
  if (event.network.network !== '') event.network.network = event.ip.includes(':') ? '2001:db8::/32' : event.ip.startsWith('203.0.113.') ? '203.0.113.0/24' : '192.0.2.0/24'
  if (event.network.asn !== 0) event.network.asn = 64496 + (index % 16)
  if (event.mac !== '') event.mac = `00:00:5e:00:53:${(index & 0xff).toString(16).padStart(2, '0')}`
}

/** Why `hook` must not receive `event`, or undefined when it must. */
export function exclusion(plan: HookPlan, hook: PlannedHook, planned: PlannedEvent): Exclusion | undefined {
  const { event } = planned
  if (!covered(plan, event)) return planned.lookAlike ? 'look-alike' : 'unwatched'
  if (!hook.request.event_types.includes(event.event_type as HookEventType)) return 'event-type'
  if (event.event_type === 'leak' && rank(event.leak.severity) > rank(hook.request.min_severity)) return 'severity'
  return undefined
}

function covered(plan: HookPlan, event: Event): boolean {
  if (withinDomain(event.host, plan.domain)) return true
  const key = ipKey(event.ip)
  if (key === plan.ip) return true
  if (key !== undefined && key.includes(':') && key.startsWith(plan.network.replace(/::\/48$/, ':'))) return true
  return plan.existing.some((r) => coveredBy(r, event))
}

/** Whether a resource the key already watched covers the event (the rule of docs/hooks.md). */
function coveredBy(resource: ResourceRequest, event: Event): boolean {
  if (resource.type === 'domain') return event.host !== '' && withinDomain(event.host, resource.value)
  const key = ipKey(event.ip)
  if (key === undefined) return false
  if (resource.type === 'ip') return ipKey(resource.value) === key
  try {
    const [range, bits] = ipaddr.parseCIDR(resource.value)
    const address = ipaddr.parse(key)
    return address.kind() === range.kind() && address.match(range, bits)
  } catch {
    return false
  }
}

/** A name part no earlier run used: the seed and the clock, in base 36. */
export function runNonce(seed: number, now = Date.now()): string {
  return `c${(seed >>> 0).toString(36)}${now.toString(36)}`
}
