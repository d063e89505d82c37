/**
 * The matching rule (match.ts) as an index, so that matching an event costs the same however
 * many resources other keys watch: owners are found from the event, never by scanning the
 * registry. Per event it makes one lookup for the IP, one per label of the host name (its
 * suffixes: `a.b.example.com`, `b.example.com`, …), and one per prefix length in use among the
 * watched networks that share the address's first byte (IPv4) or group (IPv6), at most 33 and
 * 129 whatever their number; then it asks only the covering owners' hooks. Kept up to date one
 * resource at a time (no rebuild, no cache to clear); hooks, few per key, are replaced whole.
 */
import ipaddr from 'ipaddr.js'
import type { HookIndex, HookIndexFactory, HookRecord, MatchableEvent, WatchedResource } from '../store/hook-types.js'
import { hookRun, sameRun, type Subject, subjectOf, wants } from './match.js'

/** Owners by key, with how many of each owner's resources have that key (an owner may watch a value twice). */
class OwnerCounts<K> {
  private readonly map = new Map<K, Map<string, number>>()

  get size(): number {
    return this.map.size
  }

  add(key: K, owner: string): void {
    let owners = this.map.get(key)
    if (owners === undefined) this.map.set(key, (owners = new Map()))
    owners.set(owner, (owners.get(owner) ?? 0) + 1)
  }

  remove(key: K, owner: string): void {
    const owners = this.map.get(key)
    const n = owners?.get(owner)
    if (owners === undefined || n === undefined) return
    if (n > 1) owners.set(owner, n - 1)
    else {
      owners.delete(owner)
      if (owners.size === 0) this.map.delete(key)
    }
  }

  /** Adds the owners under `key` to `into`. */
  collect(key: K, into: Set<string>): void {
    const owners = this.map.get(key)
    if (owners !== undefined) for (const owner of owners.keys()) into.add(owner)
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6

/** Prefix lengths in use, each with how many networks have it, and the list of them kept for matching. */
class Lengths {
  private readonly counts = new Map<number, number>()
  list: number[] = []

  add(length: number): void {
    const n = this.counts.get(length) ?? 0
    this.counts.set(length, n + 1)
    if (n === 0) this.list = [...this.counts.keys()]
  }

  /** False once no network is left. */
  remove(length: number): boolean {
    const n = this.counts.get(length)
    if (n === undefined) return this.counts.size > 0
    if (n > 1) this.counts.set(length, n - 1)
    else {
      this.counts.delete(length)
      this.list = [...this.counts.keys()]
    }
    return this.counts.size > 0
  }
}

/**
 * Networks of one family: one map from (prefix length, the network's first bits) to owners, and
 * the prefix lengths in use, kept apart per value of the address's first `headBits` bits (its
 * first byte for IPv4, first group for IPv6) for networks at least that long. Matching an address
 * makes one lookup per length in use among the networks that share its head (and the shorter
 * ones): networks elsewhere in the address space cost it nothing.
 */
class NetworkBuckets<B, K> {
  private readonly owners = new OwnerCounts<K>()
  private readonly short = new Lengths()
  private readonly byHead = new Map<number, Lengths>()
  constructor(
    private readonly bitsOf: (address: Address) => B,
    private readonly key: (bits: B, length: number) => K,
    private readonly headOf: (bits: B) => number,
    private readonly headBits: number,
  ) {}

  add(address: Address, length: number, owner: string): void {
    const bits = this.bitsOf(address)
    this.owners.add(this.key(bits, length), owner)
    if (length < this.headBits) return this.short.add(length)
    const head = this.headOf(bits)
    let lengths = this.byHead.get(head)
    if (lengths === undefined) this.byHead.set(head, (lengths = new Lengths()))
    lengths.add(length)
  }

  remove(address: Address, length: number, owner: string): void {
    const bits = this.bitsOf(address)
    this.owners.remove(this.key(bits, length), owner)
    if (length < this.headBits) return void this.short.remove(length)
    const head = this.headOf(bits)
    if (this.byHead.get(head)?.remove(length) === false) this.byHead.delete(head)
  }

  /** Adds the owners of every network holding `address`. */
  collect(address: Address, into: Set<string>): void {
    if (this.short.list.length === 0 && this.byHead.size === 0) return
    const bits = this.bitsOf(address)
    for (const length of this.short.list) this.owners.collect(this.key(bits, length), into)
    const lengths = this.byHead.get(this.headOf(bits))?.list
    if (lengths !== undefined) for (const length of lengths) this.owners.collect(this.key(bits, length), into)
  }
}

/** An IPv4 address as a 32-bit number. */
function v4Bits(address: Address): number {
  const [a, b, c, d] = (address as ipaddr.IPv4).octets
  return ((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0
}

/**
 * The prefix length and the first `length` bits of an IPv4 address as one number: length × 2³²
 * plus the bits (0 for /0: a shift by 32 would keep them all). Exact, being below 2⁵³.
 */
const v4Key = (bits: number, length: number): number => length * 4_294_967_296 + (length === 0 ? 0 : bits >>> (32 - length))

/** An IPv6 address as 32 hexadecimal digits. */
function v6Bits(address: Address): string {
  let hex = ''
  for (const part of (address as ipaddr.IPv6).parts) hex += part.toString(16).padStart(4, '0')
  return hex
}

/** The prefix length and the first `length` bits of an IPv6 address as hexadecimal digits (the last one masked): `48/20010db80001`. */
function v6Key(hex: string, length: number): string {
  const whole = length >> 2
  const rest = length & 3
  if (rest === 0) return `${length}/${hex.slice(0, whole)}`
  const nibble = parseInt(hex[whole]!, 16) & ((0xf << (4 - rest)) & 0xf)
  return `${length}/${hex.slice(0, whole)}${nibble.toString(16)}`
}

export class MatchIndex implements HookIndex {
  private readonly ips = new OwnerCounts<string>()
  private readonly domains = new OwnerCounts<string>()
  private readonly v4 = new NetworkBuckets(v4Bits, v4Key, (bits) => bits >>> 24, 8)
  private readonly v6 = new NetworkBuckets(v6Bits, v6Key, (hex) => parseInt(hex.slice(0, 4), 16), 16)
  /** Active hooks per owner, with their place in the registry and the run their URL names. */
  private hooksByOwner = new Map<string, { hook: HookRecord; order: number; run: string | null }[]>()

  addResource(resource: WatchedResource): void {
    this.change(resource, true)
  }

  removeResource(resource: WatchedResource): void {
    this.change(resource, false)
  }

  setHooks(hooks: readonly HookRecord[]): void {
    const byOwner = new Map<string, { hook: HookRecord; order: number; run: string | null }[]>()
    hooks.forEach((hook, order) => {
      if (hook.state !== 'active') return
      let list = byOwner.get(hook.owner)
      if (list === undefined) byOwner.set(hook.owner, (list = []))
      list.push({ hook, order, run: hookRun(hook.url) })
    })
    this.hooksByOwner = byOwner
  }

  select(event: MatchableEvent): HookRecord[] {
    if (this.hooksByOwner.size === 0) return []
    const subject = subjectOf(event)
    const owners = this.owners(subject)
    if (owners.size === 0) return []
    const selected: { hook: HookRecord; order: number }[] = []
    for (const owner of owners) {
      for (const entry of this.hooksByOwner.get(owner) ?? []) {
        if (wants(entry.hook, subject) && sameRun(entry.run, subject)) selected.push(entry)
      }
    }
    if (owners.size > 1) selected.sort((a, b) => a.order - b.order)
    return selected.map((s) => s.hook)
  }

  /** The owners watching a resource that covers the event. */
  private owners(subject: Subject): Set<string> {
    const owners = new Set<string>()
    if (subject.ip !== null) this.ips.collect(subject.ip, owners)
    if (subject.address !== null) (subject.address.kind() === 'ipv4' ? this.v4 : this.v6).collect(subject.address, owners)
    const host = subject.host
    if (host !== null) {
      // The name and each name it ends with after a dot: example.com covers www.example.com, never notexample.com.
      for (let at = 0; ; ) {
        this.domains.collect(at === 0 ? host : host.slice(at), owners)
        const dot = host.indexOf('.', at)
        if (dot === -1) break
        at = dot + 1
      }
    }
    return owners
  }

  private change(resource: WatchedResource, add: boolean): void {
    const { owner, value } = resource
    switch (resource.type) {
      case 'ip':
        return add ? this.ips.add(value, owner) : this.ips.remove(value, owner)
      case 'domain':
        return add ? this.domains.add(value, owner) : this.domains.remove(value, owner)
      case 'network': {
        const [address, bits] = ipaddr.parseCIDR(value)
        const family = address.kind() === 'ipv4' ? this.v4 : this.v6
        return add ? family.add(address, bits, owner) : family.remove(address, bits, owner)
      }
    }
  }
}

/** A fresh, empty index (what a backend that matches inside its own ingest is given). */
export const createHookIndex: HookIndexFactory = () => new MatchIndex()
