/**
 * The live stream's fan-out (docs/service.md, "Live stream"): subscribers of /ws/service and
 * /ws/leak grouped by scope and filter; each new event of the store is framed once and queued
 * for every group it matches; once per turn of the event loop each group's queue becomes one
 * buffer that is written, as it is, to each member's socket. So a new event costs one frame and
 * a predicate call per group, not work per subscriber, and memory is shared, not copied.
 *
 * A subscriber that does not read is not buffered for without bound: when its unread bytes
 * (`ws`'s bufferedAmount) pass the limit, it gets close code 1013 ("try again later": cast off
 * to keep the service well) and its connection is cut a second later if it does not close.
 */
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { NewEvent, NewEventFeed, Store } from '../store/index.js'
import type { LiveFilter } from './filter.js'
import { textFrame } from './frames.js'

export type LiveScope = 'service' | 'leak'

/** Close code and reason for a subscriber that fell behind. */
export const SLOW_CONSUMER_CLOSE = 1013
/** How long a subscriber told to close may take before its connection is cut. */
const CLOSE_GRACE_MS = 1_000
/** A ping every this long; a subscriber that answered none since the last one is cut. */
const PING_MS = 30_000

interface Group {
  scope: LiveScope
  filter: LiveFilter
  members: Set<Member>
  pending: Buffer[]
  pendingBytes: number
}

interface Member {
  ws: WebSocket
  socket: Duplex
  group: Group
  alive: boolean
}

export interface LiveHubOptions {
  /** Unread bytes a subscriber may have before it is disconnected. */
  maxBufferedBytes: number
}

export class LiveHub {
  private readonly groups = new Map<string, Group>()
  private feed: NewEventFeed | null = null
  /** Subscribers, and upgrades waiting for the feed to be ready: the feed stays while any. */
  private holders = 0
  private flushing = false
  private pinger: NodeJS.Timeout | null = null
  private closed = false
  /** Subscribers disconnected for falling behind, since the start (diagnostics, tests). */
  slowDisconnects = 0

  constructor(
    private readonly store: Store,
    private readonly options: LiveHubOptions,
  ) {}

  /** Subscribers connected now. */
  get size(): number {
    let n = 0
    for (const group of this.groups.values()) n += group.members.size
    return n
  }

  /**
   * Holds the store's feed for one coming subscriber; resolves when events stored from now on
   * will reach it. Call `release()` if the subscriber does not come after all.
   */
  async reserve(): Promise<{ release(): void }> {
    if (this.closed) throw new Error('the service is stopping')
    this.holders++
    let released = false
    const release = () => {
      if (released) return
      released = true
      this.drop()
    }
    try {
      this.feed ??= this.store.onNewEvent((item) => this.take(item))
      await this.feed.ready
    } catch (error) {
      release()
      throw error
    }
    return { release }
  }

  /** Adds a connected subscriber (after reserve(), whose hold it takes over). */
  add(scope: LiveScope, filter: LiveFilter, ws: WebSocket, socket: Duplex): void {
    const key = `${scope}\u0000${filter.text}`
    let group = this.groups.get(key)
    if (group === undefined) {
      group = { scope, filter, members: new Set(), pending: [], pendingBytes: 0 }
      this.groups.set(key, group)
    }
    const member: Member = { ws, socket, group, alive: true }
    group.members.add(member)
    ws.on('pong', () => (member.alive = true))
    ws.on('close', () => this.remove(member))
    ws.on('error', () => ws.terminate())
    this.pinger ??= setInterval(() => this.ping(), PING_MS).unref()
  }

  /** Closes every subscriber with `code` (subscribers may connect again). */
  disconnect(code: number, reason: string): void {
    for (const group of this.groups.values()) for (const member of group.members) closeSoon(member, code, reason)
  }

  /** Closes every subscriber (code 1001, going away) and takes no new one: the service is stopping. */
  close(): void {
    this.closed = true
    this.disconnect(1001, 'the service is stopping')
  }

  /** A new event of the store: framed once, queued for every group whose scope and filter take it. */
  private take(item: NewEvent): void {
    let frame: Buffer | undefined
    for (const group of this.groups.values()) {
      if ((group.scope === 'leak') !== item.leak || group.members.size === 0 || !group.filter.matches(item)) continue
      frame ??= textFrame(item.bytes)
      group.pending.push(frame)
      group.pendingBytes += frame.length
    }
    if (frame !== undefined && !this.flushing) {
      this.flushing = true
      setImmediate(() => this.flush())
    }
  }

  /** Writes each group's queued frames, as one buffer, to each of its members. */
  private flush(): void {
    this.flushing = false
    for (const group of this.groups.values()) {
      if (group.pending.length === 0) continue
      const chunk = group.pending.length === 1 ? group.pending[0]! : Buffer.concat(group.pending, group.pendingBytes)
      group.pending = []
      group.pendingBytes = 0
      for (const member of group.members) {
        if (member.ws.readyState !== member.ws.OPEN) continue
        if (member.ws.bufferedAmount > this.options.maxBufferedBytes) {
          this.slowDisconnects++
          closeSoon(member, SLOW_CONSUMER_CLOSE, `slow consumer: more than ${this.options.maxBufferedBytes} bytes unread`)
          continue
        }
        member.socket.write(chunk)
      }
    }
  }

  private remove(member: Member): void {
    const group = member.group
    if (!group.members.delete(member)) return
    if (group.members.size === 0) this.groups.delete(`${group.scope}\u0000${group.filter.text}`)
    this.drop()
  }

  /** One holder fewer; the last one stops the store's feed and the pings. */
  private drop(): void {
    if (--this.holders > 0) return
    this.feed?.stop()
    this.feed = null
    if (this.pinger) clearInterval(this.pinger)
    this.pinger = null
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
