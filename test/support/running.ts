/** Long-running `l9kit` commands (serve, hooks listen) in-process: output as it comes, and a stop. */
import { Readable, Writable } from 'node:stream'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'

/** Collects output and lets a test wait for a pattern (bounded by the test's own timeout). */
export class Lines extends Writable {
  text = ''
  private waiters: (() => void)[] = []
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.text += chunk.toString()
    for (const w of this.waiters.splice(0)) w()
    done()
  }
  async waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    for (;;) {
      const m = this.text.match(pattern)
      if (m) return m
      await new Promise<void>((resolve) => this.waiters.push(resolve))
    }
  }
}

export interface Running {
  stdout: Lines
  stderr: Lines
  exit: Promise<number>
  /** The URL of its `listening on URL` line (on `stream`, stdout by default); null when it exited first. */
  url(stream?: 'stdout' | 'stderr'): Promise<string | null>
  /** Sends the stop signal and resolves with the exit code. */
  stop(): Promise<number>
}

/** Runs `l9kit ...argv` in-process until `stop()`. */
export function running(argv: string[]): Running {
  const stdout = new Lines()
  const stderr = new Lines()
  const controller = new AbortController()
  const io: Io = { stdin: Readable.from([]), stdout, stderr, stderrIsTTY: false, env: {}, stopSignal: controller.signal }
  const exit = main(argv, io)
  return {
    stdout,
    stderr,
    exit,
    url: async (stream = 'stdout') => (await Promise.race([(stream === 'stdout' ? stdout : stderr).waitFor(/^listening on (http:\/\/\S+)/m), exit.then(() => null)]))?.[1] ?? null,
    stop: async () => {
      controller.abort()
      return exit
    },
  }
}
