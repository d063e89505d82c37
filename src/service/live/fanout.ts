/**
 * The live stream's fan-out process, as the service's process sees it: a child process
 * (fanout-child.ts) that owns the subscribers' connections and writes the frames, so that the
 * kernel copies of a frame to a hundred sockets are not made on the thread that ingests and
 * answers lookups. It is started under a launcher that lowers its priority (the service's is
 * Linux's idle class, ingest/worker-priority.ts): delivery takes the CPU the service leaves.
 *
 * Connections are handed over on the IPC channel (`send(message, socket)`: the service's copy of
 * the socket is closed once the child has it, the connection stays open); new events go over a
 * pipe of their own (fd 3 of the child, channel.ts), one write per turn of the event loop.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Socket } from 'node:net'
import type { Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { workerModule } from '../worker-source.js'
import type { FromFanout, ToFanout } from './fanout-messages.js'

/**
 * Where the child's module may be, relative to this code: in the built package it is the entry
 * dist/service/live-fanout.js (this code sits in a chunk at dist/ or in an entry one folder
 * down); run from source, it is the TypeScript file beside this one.
 */
const CANDIDATES = ['./service/live-fanout.js', '../service/live-fanout.js', './fanout-child.ts']

/** The child's module, or undefined when it cannot be found. */
export function fanoutModule(): string | undefined {
  const url = workerModule(CANDIDATES, import.meta.url)
  return url === undefined ? undefined : fileURLToPath(url)
}

export type FanoutListener = (message: FromFanout) => void

/**
 * How long the child may take to close its subscribers and exit when the service stops (its own
 * grace for a subscriber is a second), before it is killed: within the service's 3 s.
 */
export const CLOSE_DEADLINE_MS = 2_000

export class FanoutProcess {
  private readonly child: ChildProcess
  private readonly events: Writable
  /** Messages held until the child listens (a handle sent before would be lost). */
  private waiting: { message: ToFanout; socket?: Socket }[] | null = []
  /** Whether it stopped or was told to. */
  private ended = false
  private closing = false
  /** Bytes of events written to the pipe: each message says how far it came (fanout-messages.ts). */
  private written = 0
  private stderr = ''
  /** Resolves when the child has exited; `expected` unless it died or was killed for falling behind. */
  readonly exited: Promise<{ expected: boolean; why: string }>

  /**
   * `launcher`: the program (and its arguments) the child is started under, e.g. `chrt --idle 0`;
   * `filterWork`: work a subscriber's filter may do per second (none: no bound).
   */
  constructor(maxBufferedBytes: number, launcher: readonly string[], listener: FanoutListener, filterWork?: number) {
    const entry = fanoutModule()
    if (entry === undefined) throw new Error('the fan-out module (live-fanout.js) is missing')
    // From source the entry is TypeScript: tsx (a development dependency) loads it.
    const node = [process.execPath, ...(entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx')] : []), entry, String(maxBufferedBytes), String(filterWork ?? 'none')]
    const [command, ...args] = [...launcher, ...node]
    this.child = spawn(command!, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'ipc'] })
    this.events = this.child.stdio[3] as Writable
    this.events.on('error', () => undefined) // (the child's exit says it)
    // This process's life is its server's: an idle fan-out process does not keep it going.
    for (const h of [this.child, this.child.channel, this.child.stderr, this.events] as ({ unref?(): void } | null | undefined)[]) h?.unref?.()
    this.child.stderr!.setEncoding('utf8')
    this.child.stderr!.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-2048)))
    let killedFor: string | undefined
    this.kill = (why: string) => {
      killedFor ??= why
      this.ended = true
      this.child.kill('SIGKILL')
    }
    this.exited = new Promise((resolve) => {
      this.child.on('error', (error) => (killedFor ??= error.message))
      this.child.once('close', (code, signal) => {
        this.ended = true
        for (const held of this.waiting ?? []) held.socket?.destroy()
        this.waiting = null
        const expected = killedFor === undefined && code === 0 && this.closing
        const why = killedFor ?? `${signal ?? `exit code ${code}`}${this.stderr.trim() === '' ? '' : `: ${this.stderr.trim()}`}`
        resolve({ expected, why })
      })
    })
    this.child.on('message', (message: FromFanout) => {
      if (message.t === 'ready') {
        const held = this.waiting ?? []
        this.waiting = null
        for (const m of held) this.post(m.message, m.socket)
      }
      listener(message)
    })
  }

  /** Stops the child at once (SIGKILL): its subscribers' connections drop. */
  readonly kill: (why: string) => void

  /** The child's process id. */
  get pid(): number | undefined {
    return this.child.pid
  }

  /** Bytes of events written but not yet taken by the child. */
  get behind(): number {
    return this.events.writableLength
  }

  /** Sends a turn's new events (channel.ts records). */
  write(records: Buffer): void {
    if (this.ended) return
    this.events.write(records)
    this.written += records.length
  }

  /** Hands a subscriber's connection over (the child answers `added` or `gone` with its id). */
  handOver(message: Omit<Extract<ToFanout, { t: 'sub' }>, 'at'>, socket: Socket): void {
    this.post({ ...message, at: this.written }, socket)
  }

  disconnect(code: number, reason: string): void {
    this.post({ t: 'disconnect', code, reason, at: this.written })
  }

  /**
   * Tells the child to close its subscribers (1001) and exit; resolves once it has. A child that
   * has not gone within CLOSE_DEADLINE_MS (busy, or stuck) is killed: the service stops within
   * its documented time whatever the child is doing.
   */
  close(): Promise<unknown> {
    this.closing = true
    this.child.ref() // (until it has gone)
    if (!this.ended) this.post({ t: 'close', at: this.written })
    const deadline = setTimeout(() => this.kill(`it had not stopped ${CLOSE_DEADLINE_MS} ms after being told to`), CLOSE_DEADLINE_MS)
    deadline.unref()
    return this.exited.finally(() => clearTimeout(deadline))
  }

  private post(message: ToFanout, socket?: Socket): void {
    if (this.waiting !== null) return void this.waiting.push({ message, socket })
    if (this.ended || !this.child.connected) return void socket?.destroy()
    // (A failed send is the child's end, which its exit reports.)
    if (socket === undefined) return void this.child.send(message, () => undefined)
    // Sent as a socket of no server: Node would otherwise have the server wait, when it closes, for
    // a word from this child about the connections it was given, which never comes once the child
    // has gone (the server then never closes). The connection is this server's until sent: the
    // socket, its handle gone to the child, is destroyed after, which counts it off.
    ;(socket as unknown as { server: unknown }).server = null
    this.child.send(message, socket, { keepOpen: false }, () => socket.destroy())
  }
}
