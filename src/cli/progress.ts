/**
 * Progress on long runs of validate, normalize and fingerprint, as convert draws it: a bar on
 * standard error, only when it is a terminal, only for files (their size is known), never
 * with --quiet. Output written to the terminal while a bar is drawn first erases the bar, so
 * problem lines never land in the middle of it; the next chunk read draws it again.
 */
import { Writable } from 'node:stream'
import type { Io } from './command.js'
import type { NamedInput } from './inputs.js'
import { ProgressBar } from './progress-bar.js'

const isTerminal = (stream: Writable) => (stream as Writable & { isTTY?: boolean }).isTTY === true

export class Progress {
  /** Where the command writes standard output and standard error while bars may be drawn. */
  readonly stdout: Writable
  readonly stderr: Writable
  private bar: ProgressBar | undefined
  private readonly enabled: boolean

  constructor(private readonly io: Io) {
    this.enabled = io.stderrIsTTY && io.quiet !== true
    this.stderr = this.enabled ? this.erasing(io.stderr) : io.stderr
    this.stdout = this.enabled && isTerminal(io.stdout) ? this.erasing(io.stdout) : io.stdout
  }

  /** The input's chunks, drawing a bar for a file; call done() after the input. */
  track(input: NamedInput): AsyncIterable<Uint8Array> {
    if (!this.enabled || input.size === undefined) return input.stream
    this.bar = new ProgressBar(this.io.stderr, input.name, input.size)
    return this.bar.track(input.stream, input.read)
  }

  /** Erases the input's bar. */
  done(): void {
    this.bar?.clear()
    this.bar = undefined
  }

  /** `target`, with the bar erased before each write (only for terminals: they cannot fail with EPIPE). */
  private erasing(target: Writable): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.bar?.clear()
        target.write(chunk, callback)
      },
    })
  }
}
