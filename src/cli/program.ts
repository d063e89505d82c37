/** The `l9kit` program: dispatches to one subcommand per file under ./commands (loaded on use). */
import type { Io } from './command.js'
import { EXIT, UsageError } from './command.js'
import { commands } from './commands/index.js'
import { REPORT_REQUEST } from '../jsonl/guard.js'
import { printable } from '../validate/printable.js'
import { commonIo, extractCommon, helpWithCommon } from './common-options.js'
import { didYouMean } from './suggest.js'
import { VERSION } from './version.js'

function mainHelp(): string {
  const width = Math.max(...commands.map((c) => c.name.length))
  return [
    'l9kit: tools for the l9format event document (validate, normalise, convert, serve, conform)',
    '',
    'Usage: l9kit <command> [options] [FILE...]',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'l9kit <command> --help' (or 'l9kit help <command>') for a command's options. FILE '-' or no FILE reads standard input.",
    "'l9kit --version' (-V, -v, version) prints the version.",
    'Exit codes: 0 success, 1 some records invalid or failed, 2 usage or I/O error.',
  ].join('\n')
}

/** The words that print the version, as other tools take them (git and npm: `version`; many: `-v`). */
const VERSION_WORDS = ['--version', '-V', '-v', 'version']

export async function main(argv: string[], io: Io): Promise<number> {
  // `l9kit help COMMAND` is `l9kit COMMAND --help`.
  if (argv[0] === 'help' && argv.length > 1) return main([argv[1]!, '--help'], io)
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(mainHelp() + '\n')
    return name === undefined ? EXIT.usage : EXIT.ok
  }
  if (VERSION_WORDS.includes(name)) {
    io.stdout.write(VERSION + '\n')
    return EXIT.ok
  }
  const entry = commands.find((c) => c.name === name)
  if (!entry) {
    const what = name.startsWith('-') ? 'option' : 'command'
    io.stderr.write(`l9kit: unknown ${what} '${printable(name)}'${didYouMean(name, what === 'option' ? ['--help', '--version'] : [...commands.map((c) => c.name), 'help', 'version'])} (see 'l9kit --help')\n`)
    return EXIT.usage
  }
  const command = await entry.load()
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

/** The commands that take `--max-errors`, for the message refusing it elsewhere (loads them all: only then). */
async function honouring(): Promise<string[]> {
  const names: string[] = []
  for (const entry of commands) if ((await entry.load()).common?.includes('max-errors')) names.push(entry.name)
  return names
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
