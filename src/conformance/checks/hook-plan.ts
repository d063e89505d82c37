/**
 * What the hook checks ask of a server: the watched resources, the hooks, and the events
 * ingested, with what each hook must receive. Names carry a per-run nonce, so a second run
 * against the same server ingests new events, not duplicates (which are never delivered).
 *
 * The rule (issue 9, DESIGN.md: Hooks): an event goes to a hook when one of its owner's
 * resources covers it (a domain covers itself and names below it, never look-alikes such as
 * `notexample.com` for `example.com`; a network covers the addresses in it), the hook lists
 * its type, and, for a leak, its severity is at or above the hook's `min_severity`.
 */
import fc from 'fast-check'
import { createHash } from 'node:crypto'
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
  domain: string
  network: string
  /** A watched IP address, canonical (it is registered in another spelling). */
  ip: string
  resources: ResourceRequest[]
  hooks: PlannedHook[]
  events: PlannedEvent[]
}

const rank = (s: string) => SEVERITIES.indexOf(s as Severity)

/** A watched address outside the watched network (whose third group is never 0), and the spelling it is registered in: any spelling must match. */
const WATCHED_IP = '2001:db8::ab:77'
const WATCHED_IP_SPELLING = '2001:0DB8:0000:0000:0000:0000:00AB:0077'

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
  const events = rows.map(([type, host, ip, severity, lookAlike], index): PlannedEvent => {
    const event = generated[type][index]!
    event.host = host
    event.ip = ip
    event.event_fingerprint = createHash('sha256').update(`${nonce}/${index}`).digest('hex')
    if (type === 'leak') event.leak.severity = severity
    return { index, event, lookAlike }
  })
  const resources: ResourceRequest[] = [
    { type: 'domain', value: domain },
    { type: 'network', value: network },
    { type: 'ip', value: WATCHED_IP_SPELLING },
  ]
  return { domain, network, ip: WATCHED_IP, resources, hooks, events }
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
  return key !== undefined && key.includes(':') && key.startsWith(plan.network.replace(/::\/48$/, ':'))
}

/** A name part no earlier run used: the seed and the clock, in base 36. */
export function runNonce(seed: number, now = Date.now()): string {
  return `c${(seed >>> 0).toString(36)}${now.toString(36)}`
}
