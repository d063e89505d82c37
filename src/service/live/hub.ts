/**
 * The live stream's subscribers, as the service's process keeps them (docs/service.md, "Live
 * stream"). The connections themselves are handed to the fan-out process (fanout.ts), started
 * with the first subscriber and stopped with the service, which completes their handshakes and
 * writes the frames (groups.ts); this side holds the store's feed while any subscriber is
 * connected or coming, and sends each new event to that process once, batched per turn of the
 * event loop. It counts the subscribers from what that process tells it.
 *
 * If the fan-out process dies, its subscribers' connections drop with it and the next
 * subscriber starts a new one. If it falls so far behind that the events waiting for it pass
 * a bound, it is stopped the same way, rather than being buffered for without end.
 */
import type { Socket } from 'node:net'
import type { NewEvent, NewEventFeed, Store } from '../store/index.js'
import { EventRecords } from './channel.js'
import { FanoutProcess } from './fanout.js'
import type { FromFanout, UpgradeRequest } from './fanout-messages.js'
import type { LiveScope } from './groups.js'

export { SLOW_CONSUMER_CLOSE, type LiveScope } from './groups.js'

/** Least bound on the event bytes waiting for the fan-out process (see behindLimit). */
const MIN_BEHIND_BYTES = 64 * 1024 * 1024

export interface LiveHubOptions {
  /** Unread bytes a subscriber may have before it is disconnected. */
  maxBufferedBytes: number
  /** Work a subscriber's filter may do per second (`live_filter_work`; default no bound): past it, 1013. */
  filterWork?: number
  /** The program (and its arguments) the fan-out process is started under, to lower its priority; default none. */
  launcher?: readonly string[]
  /** Where a line about the fan-out process goes (default: standard error). */
  log?: (line: string) => void
}

/** A connection handed to the fan-out process: a member once it has had its 101. */
interface Handed {
  fanout: FanoutProcess
  member: boolean
  release(): void
}

export class LiveHub {
  private feed: NewEventFeed | null = null
  /** Subscribers, and upgrades on their way: the feed stays while any. */
  private holders = 0
  private fanout: FanoutProcess | null = null
  private readonly handed = new Map<number, Handed>()
  private nextId = 1
  private members = 0
  private readonly pending = new EventRecords()
  private flushing = false
  private closed = false
  /** Subscribers disconnected for falling behind, since the start (diagnostics, tests). */
  slowDisconnects = 0

  constructor(
    private readonly store: Store,
    private readonly options: LiveHubOptions,
  ) {}

  /** Subscribers connected now (as the fan-out process last told). */
  get size(): number {
    return this.members
  }

  /** The fan-out process's id, while one runs (tests). */
  get fanoutPid(): number | undefined {
    return this.fanout?.pid
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
      this.fanout ??= this.startFanout()
      this.feed ??= this.store.onNewEvent((item) => this.take(item))
      await this.feed.ready
    } catch (error) {
      release()
      throw error
    }
    return { release }
  }

  /**
   * Hands a checked connection (after reserve(), whose hold goes with it) to the fan-out
   * process, which sends the 101 and adds it to the group of `scope`, `filter` (its text) and
   * conformance run `run` (null: none; store/conform-runs.ts).
   */
  handOver(hold: { release(): void }, scope: LiveScope, filter: string, req: UpgradeRequest, socket: Socket, head: Buffer, run: string | null = null): void {
    const fanout = this.fanout
    if (fanout === null) {
      socket.destroy()
      return hold.release()
    }
    this.flush() // (the events stored before it go to the others)
    const id = this.nextId++
    this.handed.set(id, { fanout, member: false, release: hold.release })
    fanout.handOver({ t: 'sub', id, scope, filter, run, req, head: head.toString('base64') }, socket)
  }

  /** Closes every subscriber with `code` (subscribers may connect again). */
  disconnect(code: number, reason: string): void {
    this.flush() // (the close frames come after the events stored before)
    this.fanout?.disconnect(code, reason)
  }

  /**
   * Closes every subscriber (code 1001, going away) and takes no new one: the service is
   * stopping. Resolves when the fan-out process has exited.
   */
  async close(): Promise<void> {
    this.closed = true
    this.flush()
    const fanout = this.fanout
    if (fanout !== null) await fanout.close()
  }

  private startFanout(): FanoutProcess {
    const fanout: FanoutProcess = new FanoutProcess(this.options.maxBufferedBytes, this.options.launcher ?? [], (message) => this.heard(message), this.options.filterWork)
    void fanout.exited.then(({ expected, why }) => {
      if (this.fanout === fanout) this.fanout = null
      for (const [id, h] of this.handed) {
        if (h.fanout !== fanout) continue
        this.handed.delete(id)
        if (h.member) this.members--
        h.release()
      }
      if (!expected) (this.options.log ?? ((line) => process.stderr.write(`${line}\n`)))(`live stream: the fan-out process stopped (${why}); its subscribers were disconnected`)
    })
    return fanout
  }

  private heard(message: FromFanout): void {
    if (message.t === 'slow') this.slowDisconnects++
    if (message.t !== 'added' && message.t !== 'gone' && message.t !== 'removed') return
    const h = this.handed.get(message.id)
    if (h === undefined) return
    if (message.t === 'added') {
      h.member = true
      this.members++
      return
    }
    this.handed.delete(message.id)
    if (h.member) this.members--
    h.release()
  }

  /** A new event of the store: queued for the fan-out process, which gets the turn's events at once. */
  private take(item: NewEvent): void {
    if (this.fanout === null) return
    this.pending.add(item.bytes, item.leak)
    if (!this.flushing) {
      this.flushing = true
      setImmediate(() => this.flush())
    }
  }

  /** Writes the turn's new events to the fan-out process. */
  private flush(): void {
    this.flushing = false
    const records = this.pending.take()
    const fanout = this.fanout
    if (fanout === null || records.length === 0) return
    fanout.write(records)
    const limit = Math.max(MIN_BEHIND_BYTES, 4 * this.options.maxBufferedBytes)
    if (fanout.behind > limit) {
      this.slowDisconnects += this.members
      fanout.kill(`more than ${limit} bytes of new events waited for it`)
    }
  }

  /** One holder fewer; the last one stops the store's feed. */
  private drop(): void {
    if (--this.holders > 0) return
    this.feed?.stop()
    this.feed = null
    this.pending.take()
  }
}
