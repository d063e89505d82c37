/**
 * The matching rule of alert hooks (docs/hooks.md), as pure functions: which watched resources
 * cover an event, which hooks want it, and so which hooks get one delivery of it. The index
 * both backends match with (match-index.ts) is built on these; `selectHooks`, a plain scan of
 * the registry, is the oracle the property tests hold the index to.
 */
import ipaddr from 'ipaddr.js'
import type { HookEventType, ResourceType, Severity } from '../../schema/index.js'
import { SEVERITIES } from '../../schema/index.js'
import { canonicalDomain } from '../names/domain.js'
import { canonicalIp } from '../names/ip.js'
import type { HookRecord, MatchableEvent, WatchedResource } from '../store/hook-types.js'
import { CONFORM_RUN_PARAMETER, eventRuns, sameRun } from '../store/conform-runs.js'

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** What matching looks at in an event, computed once per event. */
export interface Subject {
  type: string
  /** Canonical host name, or null when `host` is not a domain name. */
  host: string | null
  /** Canonical IP text (IPv4-mapped IPv6 as IPv4), or null. */
  ip: string | null
  address: Address | null
  /** `leak.severity` as given ('' when absent). */
  severity: string
  /** The conformance runs its tags name (`l9kit-conform:RUN`); empty for every other event. */
  runs: readonly string[]
}

/**
 * The conformance-run rule (a run's tagged events reach only hooks of that run, and a run's hooks
 * receive only its events) is the store layer's, shared with the live stream.
 */
export { CONFORM_RUN_PARAMETER, CONFORM_TAG_PREFIX, eventRuns, sameRun } from '../store/conform-runs.js'

/** The run a hook URL names with its `l9kit-conform-run` query parameter, or null. */
export function hookRun(url: string): string | null {
  if (url.indexOf(CONFORM_RUN_PARAMETER) === -1) return null
  try {
    return new URL(url).searchParams.get(CONFORM_RUN_PARAMETER)
  } catch {
    return null
  }
}

/** Reads the matched members of an event once. */
export function subjectOf(event: MatchableEvent): Subject {
  const ip = event.ip ? canonicalIp(event.ip) : null
  return {
    type: event.event_type,
    host: event.host ? canonicalDomain(event.host) : null,
    ip,
    address: ip === null ? null : ipaddr.parse(ip),
    severity: event.leak?.severity ?? '',
    runs: eventRuns(event.tags),
  }
}

/**
 * True when a resource covers the event: a domain covers the name itself and every name that
 * ends with `.` + the domain (so `notexample.com` is not under `example.com`); an ip matches the
 * event's IP in any spelling; a network contains the event's IP (an IPv4-mapped IPv6 address is
 * its IPv4 address, so it falls in IPv4 networks).
 */
export function covers(resource: Pick<WatchedResource, 'type' | 'value'>, subject: Subject): boolean {
  switch (resource.type) {
    case 'domain': {
      const host = subject.host
      if (host === null) return false
      const value = resource.value
      return host === value || (host.length > value.length && host.endsWith(value) && host.charCodeAt(host.length - value.length - 1) === 46)
    }
    case 'ip':
      return subject.ip !== null && subject.ip === resource.value
    case 'network': {
      if (subject.address === null) return false
      const [network, bits] = ipaddr.parseCIDR(resource.value)
      return subject.address.kind() === network.kind() && (subject.address as ipaddr.IPv4).match(network as ipaddr.IPv4, bits)
    }
  }
}

/**
 * Rank of a severity: 0 for critical … 4 for info. A severity outside the list (or none) ranks
 * as info, the lowest: such a leak reaches only hooks whose floor is info.
 */
export function severityRank(severity: string): number {
  const rank = (SEVERITIES as readonly string[]).indexOf(severity)
  return rank === -1 ? SEVERITIES.length - 1 : rank
}

/** True when the hook wants events of this type and, for a leak, of this severity. */
export function wants(hook: { eventTypes: readonly HookEventType[]; minSeverity: Severity }, subject: Subject): boolean {
  if (subject.type === 'service') return hook.eventTypes.includes('service')
  if (subject.type === 'leak') return hook.eventTypes.includes('leak') && severityRank(subject.severity) <= severityRank(hook.minSeverity)
  return false
}

/**
 * The hooks that get one delivery of the event, in the order of `hooks`: the hook is active,
 * its owner watches a resource covering the event, the hook wants it, and the conformance-run
 * rule holds. Each hook at most once, however many resources cover. A scan of the whole
 * registry: the oracle of the index (match-index.ts), not what ingest runs.
 */
export function selectHooks(resources: readonly WatchedResource[], hooks: readonly HookRecord[], event: MatchableEvent): HookRecord[] {
  if (hooks.length === 0) return []
  const subject = subjectOf(event)
  const covered = new Map<string, boolean>()
  const selected: HookRecord[] = []
  for (const hook of hooks) {
    if (hook.state !== 'active' || !wants(hook, subject) || !sameRun(hookRun(hook.url), subject)) continue
    let owned = covered.get(hook.owner)
    if (owned === undefined) {
      owned = resources.some((r) => r.owner === hook.owner && covers(r, subject))
      covered.set(hook.owner, owned)
    }
    if (owned) selected.push(hook)
  }
  return selected
}

/** A resource value in canonical spelling, or why it is not one of its type. */
export function canonicalResource(type: ResourceType, value: string): { ok: true; value: string } | { ok: false; reason: string } {
  switch (type) {
    case 'domain': {
      const name = canonicalDomain(value)
      return name === null
        ? { ok: false, reason: `${JSON.stringify(value)} is not a domain name (labels of letters, digits, '-' and '_', at most 253 characters)` }
        : { ok: true, value: name }
    }
    case 'ip': {
      const ip = canonicalIp(value)
      return ip === null ? { ok: false, reason: `${JSON.stringify(value)} is not an IPv4 or IPv6 address` } : { ok: true, value: ip }
    }
    case 'network':
      return canonicalNetwork(value)
  }
}

/** `ADDRESS/BITS` with the host bits cleared; IPv4-mapped IPv6 blocks (prefix ≥ 96) become IPv4 blocks. */
function canonicalNetwork(value: string): { ok: true; value: string } | { ok: false; reason: string } {
  const bad = (why: string) => ({ ok: false as const, reason: `${JSON.stringify(value)} is not a CIDR network: ${why}` })
  const slash = value.indexOf('/')
  if (slash === -1) return bad("it needs '/' and a prefix length (such as 10.0.0.0/8 or 2001:db8::/32)")
  const ip = canonicalIp(value.slice(0, slash))
  if (ip === null) return bad('the part before / is not an IP address')
  const bitsText = value.slice(slash + 1)
  let address: Address = ipaddr.parse(ip)
  let bits = /^[0-9]{1,3}$/.test(bitsText) ? Number(bitsText) : -1
  const v6Mapped = ip.indexOf('.') !== -1 && value.slice(0, slash).indexOf(':') !== -1
  if (v6Mapped) {
    if (bits < 96 || bits > 128) return bad('an IPv4-mapped block needs a prefix length of 96 to 128')
    bits -= 96
  }
  const max = address.kind() === 'ipv4' ? 32 : 128
  if (bits < 0 || bits > max) return bad(`the prefix length must be 0 to ${max}`)
  address = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${ip}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${ip}/${bits}`)
  return { ok: true, value: `${canonicalIp(address.toString())}/${bits}` }
}
