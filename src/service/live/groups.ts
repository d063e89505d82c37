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
 */
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { Event } from '../../schema/index.js'
import { type ChannelEvent, EventDecoder } from './channel.js'
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
  scope: LiveScope
  filter: LiveFilter
  members: Set<Member>
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
  /** A subscriber was disconnected for falling behind. */
  onSlow(): void
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

  /** Adds a connected subscriber; `gone` is called once when it has left. */
  add(scope: LiveScope, filter: LiveFilter, ws: WebSocket, socket: Duplex, gone: () => void): void {
    this.flush() // (the events held came before it)
    const key = `${scope}\u0000${filter.text}`
    let group = this.groups.get(key)
    if (group === undefined) {
      group = { scope, filter, members: new Set() }
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

  /** Writes each group's frames of the events held, as one buffer, to each of its members. */
  private flush(): void {
    if (this.holdTimer !== null) clearTimeout(this.holdTimer)
    this.holdTimer = null
    const events: ChannelEvent[] = []
    for (const chunk of this.chunks) this.decoder.push(chunk, events)
    this.chunks = []
    this.held = 0
    if (events.length === 0 || this.groups.size === 0) return
    const taken = this.select(events)
    for (const [group, chosen] of taken) {
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

  /** The events each group takes (its scope, its filter), in order; groups that take none are left out. */
  private select(events: ChannelEvent[]): Map<Group, ChannelEvent[]> {
    const taken = new Map<Group, ChannelEvent[]>()
    for (const event of events) {
      let parsed: Event | undefined
      const item = { bytes: event.bytes, leak: event.leak, event: () => (parsed ??= JSON.parse(event.bytes.toString('utf8')) as Event) }
      for (const group of this.groups.values()) {
        if ((group.scope === 'leak') !== event.leak || group.members.size === 0 || !group.filter.matches(item)) continue
        const chosen = taken.get(group)
        if (chosen === undefined) taken.set(group, [event])
        else chosen.push(event)
      }
    }
    return taken
  }

  /** Whether `member` was still a member (so is gone now). */
  private remove(member: Member): boolean {
    const group = member.group
    if (!group.members.delete(member)) return false
    if (group.members.size === 0) this.groups.delete(`${group.scope}\u0000${group.filter.text}`)
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

/** Sends a close frame now and cuts the connection if the subscriber has not closed within the grace. */
function closeSoon(member: Member, code: number, reason: string): void {
  if (member.ws.readyState !== member.ws.OPEN) return
  member.ws.close(code, reason)
  setTimeout(() => member.ws.terminate(), CLOSE_GRACE_MS).unref()
}
