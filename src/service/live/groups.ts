/**
 * The live stream's subscribers, as the fan-out process (fanout-child.ts) keeps them, grouped
 * by scope and filter. New events come from the service's process in chunks (channel.ts) and
 * are held, as they came, until new events pause (HOLD_QUIET_MS: the service is not storing),
 * at the latest HOLD_MAX_MS after the first, or as soon as they are as many bytes as a
 * subscriber may have unread. Then each group's frames of the events it takes (scope, filter)
 * are built into one buffer, which is written, as it is, to each member's socket: a new event
 * costs a predicate call and a copy per group, not work per subscriber.
 *
 * Holding is what keeps a burst of ingest from being slowed: the frames' copies to every
 * subscriber (the kernel's, at both ends of each connection, and the memory they pass through)
 * are made once the burst is over, in larger writes.
 *
 * A subscriber that does not read is not buffered for without bound: when its unread bytes
 * (`ws`'s bufferedAmount) pass the limit, it gets close code 1013 ("try again later": cast off
 * to keep the service well) and its connection is cut a second later if it does not close.
 *
 * Nor does a costly filter delay the others: each group's filter draws on a budget of work
 * (filter-budget.ts: the query's cost per event it tests, by the event's size, against
 * `filterWork` units a second) and groups are served cheapest filter first, each group's frames
 * written as soon as its events are chosen. A group whose filter cannot keep up with the new
 * events (its budget is spent) gets 1013 with the reason and is dropped. Conformance runs' test
 * events go only to the subscribers of their run (store/conform-runs.ts), as alert hooks do.
 */
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { Event } from '../../schema/index.js'
import { runsOfBytes, sameRun } from '../store/conform-runs.js'
import { type ChannelEvent, EventDecoder } from './channel.js'
import { FilterBudget } from './filter-budget.js'
import type { LiveFilter } from './filter.js'
import { frameHeadLength, writeTextFrame } from './frames.js'

export type LiveScope = 'service' | 'leak'

/** Close code for a subscriber that fell behind. */
export const SLOW_CONSUMER_CLOSE = 1013
/** How long a subscriber told to close may take before its connection is cut. */
export const CLOSE_GRACE_MS = 1_000
/** A ping every this long; a subscriber that answered none since the last one is cut. */
const PING_MS = 30_000
/** Events held are written once no new event came for this long… */
export const HOLD_QUIET_MS = 100
/** …or this long after the first of them came. */
export const HOLD_MAX_MS = 1_000

interface Group {
  key: string
  scope: LiveScope
  filter: LiveFilter
  /** The conformance run its subscribers belong to (null: none): they get that run's test events, and only those. */
  run: string | null
  budget: FilterBudget
  /** Its filter could not keep up: its members are closing, it takes no more events. */
  spent: boolean
  members: Set<Member>
}

/** A new event as the groups' filters read it: parsed once, its conformance runs read once. */
interface Candidate {
  event: ChannelEvent
  item: { bytes: Buffer; leak: boolean; event(): Event }
  runs: readonly string[]
}

interface Member {
  ws: WebSocket
  socket: Duplex
  group: Group
  alive: boolean
}

export interface GroupsOptions {
  /** Unread bytes a subscriber may have before it is disconnected. */
  maxBufferedBytes: number
  /** Work a group's filter may do per second, on average (ratelimit/budgets.ts `live_filter_work`); default no bound. */
  filterWork?: number
  /** A subscriber was disconnected for falling behind (its reading, or its filter). */
  onSlow(): void
  /** The clock of the filters' budgets, in ms (default performance.now). */
  now?: () => number
}

export class LiveGroups {
  private readonly groups = new Map<string, Group>()
  private readonly decoder = new EventDecoder()
  /** Chunks of new events not yet written, and their bytes. */
  private chunks: Buffer[] = []
  private held = 0
  private firstHeldAt = 0
  private lastEventAt = 0
  private holdTimer: NodeJS.Timeout | null = null
  private pinger: NodeJS.Timeout | null = null

  constructor(private readonly options: GroupsOptions) {}

  /** Subscribers connected now. */
  get size(): number {
    let n = 0
    for (const group of this.groups.values()) n += group.members.size
    return n
  }

  /** Adds a connected subscriber (of conformance run `run`, if not null); `gone` is called once when it has left. */
  add(scope: LiveScope, filter: LiveFilter, ws: WebSocket, socket: Duplex, gone: () => void, run: string | null = null): void {
    this.flush() // (the events held came before it)
    const key = `${scope}\u0000${run ?? ''}\u0000${run === null ? 0 : 1}\u0000${filter.text}`
    let group = this.groups.get(key)
    if (group === undefined || group.spent) {
      group = { key, scope, filter, run, budget: new FilterBudget(this.options.filterWork ?? Infinity, this.options.now), spent: false, members: new Set() }
      this.groups.set(key, group)
    }
    const member: Member = { ws, socket, group, alive: true }
    group.members.add(member)
    ws.on('pong', () => (member.alive = true))
    ws.on('close', () => this.remove(member) && gone())
    ws.on('error', () => ws.terminate())
    this.pinger ??= setInterval(() => this.ping(), PING_MS)
  }

  /** Closes every subscriber with `code` (each is cut if it has not closed within the grace). */
  disconnect(code: number, reason: string): void {
    this.flush() // (what is held goes before the close frame)
    for (const group of this.groups.values()) for (const member of group.members) closeSoon(member, code, reason)
  }

  /** A chunk of new events from the service (channel.ts): held until the next write. */
  hold(chunk: Buffer): void {
    this.lastEventAt = performance.now()
    if (this.held === 0) this.firstHeldAt = this.lastEventAt
    this.chunks.push(chunk)
    this.held += chunk.length
    if (this.held >= this.options.maxBufferedBytes) this.flush()
    else this.holdTimer ??= setTimeout(() => this.due(), HOLD_QUIET_MS)
  }

  /** Writes what is held if new events have paused or the first has waited long enough. */
  private due(): void {
    this.holdTimer = null
    if (this.held === 0) return
    const now = performance.now()
    const wait = Math.min(this.lastEventAt + HOLD_QUIET_MS, this.firstHeldAt + HOLD_MAX_MS) - now
    if (wait <= 0) this.flush()
    else this.holdTimer = setTimeout(() => this.due(), wait)
  }

  /**
   * Writes each group's frames of the events held, as one buffer, to each of its members: the
   * groups of the cheapest filters first, each as soon as its events are chosen.
   */
  private flush(): void {
    if (this.holdTimer !== null) clearTimeout(this.holdTimer)
    this.holdTimer = null
    const events: ChannelEvent[] = []
    for (const chunk of this.chunks) this.decoder.push(chunk, events)
    this.chunks = []
    this.held = 0
    if (events.length === 0 || this.groups.size === 0) return
    const candidates = events.map(candidate)
    const groups = [...this.groups.values()].sort((a, b) => a.filter.cost - b.filter.cost)
    for (const group of groups) {
      const chosen = this.select(group, candidates)
      if (chosen === undefined || chosen.length === 0) continue
      let size = 0
      for (const event of chosen) size += frameHeadLength(event.bytes.length) + event.bytes.length
      const chunk = Buffer.allocUnsafeSlow(size)
      let at = 0
      for (const event of chosen) at = writeTextFrame(chunk, at, event.bytes)
      for (const member of group.members) {
        if (member.ws.readyState !== member.ws.OPEN) continue
        if (member.ws.bufferedAmount > this.options.maxBufferedBytes) {
          this.options.onSlow()
          closeSoon(member, SLOW_CONSUMER_CLOSE, `slow consumer: more than ${this.options.maxBufferedBytes} bytes unread`)
          continue
        }
        member.socket.write(chunk)
      }
    }
  }

  /**
   * The events `group` takes (its scope, its conformance run, its filter), in order; undefined
   * when its filter spent its budget on them (its members are then closed with 1013).
   */
  private select(group: Group, candidates: readonly Candidate[]): ChannelEvent[] | undefined {
    if (group.members.size === 0 || group.spent) return undefined
    const chosen: ChannelEvent[] = []
    const { filter, budget } = group
    for (const c of candidates) {
      if ((group.scope === 'leak') !== c.event.leak || !sameRun(group.run, c)) continue
      if (filter.cost > 0 && !budget.take(filter.cost, c.event.bytes.length)) {
        this.cannotKeepUp(group)
        return undefined
      }
      if (filter.matches(c.item)) chosen.push(c.event)
    }
    return chosen
  }

  /** Closes a group whose filter spent its budget (1013, with the reason) and forgets it. */
  private cannotKeepUp(group: Group): void {
    group.spent = true
    const reason = `filter too costly for the new events: its cost per event (${group.filter.cost}) passed ${this.options.filterWork} work units a second`
    for (const member of group.members) {
      this.options.onSlow()
      closeSoon(member, SLOW_CONSUMER_CLOSE, reason.slice(0, 120))
    }
  }

  /** Whether `member` was still a member (so is gone now). */
  private remove(member: Member): boolean {
    const group = member.group
    if (!group.members.delete(member)) return false
    if (group.members.size === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key)
    if (this.groups.size === 0 && this.pinger) {
      clearInterval(this.pinger)
      this.pinger = null
    }
    return true
  }

  private ping(): void {
    for (const group of this.groups.values()) {
      for (const member of group.members) {
        if (!member.alive) {
          member.ws.terminate()
          continue
        }
        member.alive = false
        if (member.ws.readyState === member.ws.OPEN) member.ws.ping()
      }
    }
  }
}

/** A new event, read lazily once for every group. */
function candidate(event: ChannelEvent): Candidate {
  let parsed: Event | undefined
  const parse = () => (parsed ??= JSON.parse(event.bytes.toString('utf8')) as Event)
  return { event, item: { bytes: event.bytes, leak: event.leak, event: parse }, runs: runsOfBytes(event.bytes, parse) }
}

/** Sends a close frame now and cuts the connection if the subscriber has not closed within the grace. */
function closeSoon(member: Member, code: number, reason: string): void {
  if (member.ws.readyState !== member.ws.OPEN) return
  member.ws.close(code, reason)
  setTimeout(() => member.ws.terminate(), CLOSE_GRACE_MS).unref()
}
