/** Small stream helpers for tests: inputs from strings or chunks, outputs captured as text. */
import { PassThrough, Readable, Writable } from 'node:stream'
import type { Io } from '../../src/cli/command.js'
import { main } from '../../src/cli/program.js'

/** An async iterable of byte chunks, split where the test says. */
export async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? Buffer.from(part, 'utf8') : part
}

export class Capture extends Writable {
  private parts: Buffer[] = []
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.parts.push(Buffer.from(chunk))
    done()
  }
  get text(): string {
    return Buffer.concat(this.parts).toString('utf8')
  }
}

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/** Runs `l9kit ...argv` in-process with the given standard input. */
export async function runCli(argv: string[], stdin = ''): Promise<CliResult> {
  const stdout = new Capture()
  const stderr = new Capture()
  const input = stdin === '' ? Readable.from([]) : Readable.from([Buffer.from(stdin)])
  const io: Io = { stdin: input, stdout, stderr, stderrIsTTY: false, env: {} }
  const code = await main(argv, io)
  return { code, stdout: stdout.text, stderr: stderr.text }
}

export { PassThrough }
