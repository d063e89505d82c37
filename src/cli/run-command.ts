/**
 * Runs one loaded subcommand: its `--help`, the common options, and the error a user mistake
 * ends in (a message and exit code 2, never a stack trace). Apart from program.ts (which knows
 * every command) so that a stream command's one-file build (fast/) holds this and its own code only.
 */
import type { Command, Io } from './command.js'
import { EXIT, UsageError } from './command.js'
import { REPORT_REQUEST } from '../jsonl/guard.js'
import { printable } from '../validate/printable.js'
import { commonIo, extractCommon, helpWithCommon } from './common-options.js'

/**
 * Runs `command` (named `name`) on its arguments `rest`; its exit code. `honouring` lists the
 * commands that take `--max-errors`, for the message refusing it to one that does not.
 */
export async function runCommand(name: string, command: Command, rest: string[], io: Io, honouring: () => Promise<string[]>): Promise<number> {
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(helpWithCommon(command) + '\n')
    return EXIT.ok
  }
  let finish: (() => Promise<void>) | undefined
  try {
    const { argv: own, common } = extractCommon(name, rest)
    if (common.maxErrors !== undefined && !command.common?.includes('max-errors')) {
      throw new UsageError(`${name}: --max-errors does not apply to this command (it does to ${(await honouring()).join(', ')})`)
    }
    const set = await commonIo(name, own, io, common)
    finish = set.finish
    const code = await command.run(own, set.io)
    finish = undefined
    await set.finish()
    return code
  } catch (error) {
    await finish?.().catch(() => undefined)
    if (error instanceof UsageError) {
      // Line by line: a message may list several problems (a configuration file's), one per line.
      io.stderr.write(`${error.message.split('\n').map((line, i) => (i === 0 ? 'l9kit ' : '') + printable(line)).join('\n')}\n`)
      return EXIT.usage
    }
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EPIPE') return EXIT.ok // the reader went away (`| head`): not our failure
    if (code === 'EGZIP') {
      // A damaged or cut-off gzip input (GzipInputError): its message says where.
      io.stderr.write(`l9kit ${name}: ${printable(`${(error as NodeJS.ErrnoException).path}: ${(error as Error).message}`)}\n`)
      return EXIT.usage
    }
    if (code && (error as NodeJS.ErrnoException).path) {
      io.stderr.write(`l9kit ${name}: ${printable(String((error as NodeJS.ErrnoException).path))}: ${describeErrno(code)}\n`)
      return EXIT.usage
    }
    if (code && /^E[A-Z0-9]+$/.test(code) && (error as NodeJS.ErrnoException).syscall !== undefined) {
      // A system call failed on a stream with no path (standard input, a pipe, a read after the
      // open): the machine's fault or the input's, not l9kit's.
      io.stderr.write(`l9kit ${name}: I/O error: ${describeErrno(code)} (${printable(String((error as NodeJS.ErrnoException).syscall))})\n`)
      return EXIT.usage
    }
    io.stderr.write(`l9kit ${name}: internal error (${REPORT_REQUEST}): ${(error as Error).stack ?? String(error)}\n`)
    return EXIT.usage
  }
}


function describeErrno(code: string): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory'
    case 'EACCES':
      return 'permission denied'
    case 'EISDIR':
      return 'is a directory'
    case 'ENOTDIR':
      return 'not a directory (a part of the path is a file)'
    case 'EIO':
      return 'input/output error (EIO: the device or file system failed)'
    case 'ENOSPC':
      return 'no space left on the device (ENOSPC)'
    case 'EROFS':
      return 'read-only file system (EROFS)'
    case 'EMFILE':
    case 'ENFILE':
      return `too many open files (${code})`
    default:
      return code
  }
}
