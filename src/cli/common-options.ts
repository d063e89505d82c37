/**
 * The options every `l9kit` command takes, handled here once so that a command added later
 * has them too: `-o/--output FILE` (standard output to FILE), `-q/--quiet` (no informational
 * lines) and, for commands that report problems record by record, `--max-errors N`. The
 * program takes them out of the arguments before the command parses its own (a command never
 * defines them), opens the output before the command runs, and appends their lines to the
 * command's `--help`.
 *
 * Taking them out first is exact: node's parseArgs refuses an option value that starts with
 * `-` unless it is written `--name=-value`, so a lone `-o`, `-q` or `--max-errors` token before
 * `--` can only be one of these options.
 */
import { createWriteStream, open as openFile, stat as statFile } from 'node:fs'
import { promisify } from 'node:util'
import type { Readable, Writable } from 'node:stream'
import { positiveInt } from './args.js'
import type { Command, Io } from './command.js'
import { UsageError } from './command.js'
import { optionLines } from './help.js'
import { terminalInput } from './terminal-input.js'

export interface CommonOptions {
  output?: string
  quiet: boolean
  maxErrors?: number
}

const HELP: [string, string][] = [
  ['-o, --output FILE', 'write standard output to FILE instead (created or emptied before the command runs, so a path that cannot be written fails at once)'],
  ['-q, --quiet', 'leave out informational lines (summaries, progress bars, hints, warnings); results, problems and errors are written as usual'],
]
const MAX_ERRORS_HELP: [string, string] = [
  '--max-errors N',
  'report at most N problems (lines of text, or records), then one line saying how many more there were; the exit status is unchanged',
]

/** Takes the common options out of `argv` (up to a `--`). */
export function extractCommon(command: string, argv: readonly string[]): { argv: string[]; common: CommonOptions } {
  const rest: string[] = []
  const common: CommonOptions = { quiet: false }
  let maxErrors: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      rest.push(...argv.slice(i))
      break
    }
    const valueOf = (name: string) => {
      const value = argv[++i]
      if (value === undefined || (value.startsWith('-') && value !== '-')) throw new UsageError(`${command}: ${name} needs a value (see 'l9kit ${command} --help')`)
      return value
    }
    if (arg === '-q' || arg === '--quiet') common.quiet = true
    else if (arg === '-o' || arg === '--output') common.output = valueOf(arg)
    else if (arg.startsWith('--output=')) common.output = arg.slice('--output='.length)
    else if (arg.startsWith('-o') && !arg.startsWith('--') && arg.length > 2) common.output = arg.slice(2)
    else if (arg === '--max-errors') maxErrors = valueOf(arg)
    else if (arg.startsWith('--max-errors=')) maxErrors = arg.slice('--max-errors='.length)
    else rest.push(arg)
  }
  if (common.output === '') throw new UsageError(`${command}: --output needs a file name`)
  if (maxErrors !== undefined) common.maxErrors = positiveInt(command, 'max-errors', maxErrors, 0)
  return { argv: rest, common }
}

/**
 * The command's help with the common options' lines: put before its `-h, --help` line, in its
 * column, or as a section of their own at the end when it has none.
 */
export function helpWithCommon(command: Command): string {
  const entries = command.common?.includes('max-errors') ? [...HELP, MAX_ERRORS_HELP] : HELP
  const lines = command.help.trimEnd().split('\n')
  const at = lines.findIndex((line) => /^ {2}-h, --help +\S/.test(line))
  if (at === -1) return `${lines.join('\n')}\n\nOptions of every command:\n${optionLines([...entries, ['-h, --help', 'show this help']], 22)}`
  const column = /^ {2}-h, --help +/.exec(lines[at]!)![0].length
  lines.splice(at, 0, optionLines(entries, column))
  return lines.join('\n')
}

/** An Io set up for the common options, and what to do once the command has finished. */
export interface CommonIo {
  io: Io
  /** Closes the output file (waiting until its bytes are written) and stops reading a terminal. */
  finish(): Promise<void>
}

/**
 * Applies the common options to `io`: the output file opened now (it fails before the
 * command runs), the quiet and max-errors settings, and a hint on standard error once a
 * command starts reading standard input that is a terminal.
 */
export async function commonIo(command: string, argv: readonly string[], io: Io, common: CommonOptions): Promise<CommonIo> {
  // io's members copied as they are: its `stdin` may be a getter (start.ts), not to be called
  // before a command reads standard input (making process.stdin loads a stream of its kind).
  const set = Object.defineProperties({}, Object.getOwnPropertyDescriptors(io)) as Io
  set.quiet = common.quiet || io.quiet === true
  if (common.maxErrors !== undefined) set.maxErrors = common.maxErrors
  let terminal: Readable | undefined
  let stdin: Readable | undefined
  Object.defineProperty(set, 'stdin', {
    enumerable: true,
    configurable: true,
    get: () => (stdin ??= isTerminal(io.stdin) ? (terminal = terminalInput(io.stdin, () => (set.quiet ? undefined : io.stderr.write(stdinHint(command))))) : io.stdin),
  })
  const stopReading = () => void terminal?.destroy()
  if (common.output === undefined) return { io: set, finish: async () => stopReading() }
  const file = await openOutput(command, common.output, argv)
  // A failed write (a full disk) is reported when the command ends, as the program reports
  // any I/O error (its path and why, exit 2); until then writes go nowhere.
  let failure: Error | undefined
  file.on('error', (error) => (failure ??= error))
  set.stdout = file
  return {
    io: set,
    async finish() {
      stopReading()
      if (!failure) await closed(file).catch((error: Error) => (failure ??= error))
      if (failure) throw Object.assign(failure, { path: common.output })
    },
  }
}

const isTerminal = (stream: Readable) => (stream as Readable & { isTTY?: boolean }).isTTY === true

/** The hint a command writes when it starts waiting for a person to type its input. */
export const stdinHint = (command: string) =>
  `l9kit ${command}: reading standard input from the terminal: paste or type, then Ctrl-D to end (Ctrl-C to stop); give a FILE to read a file, or see 'l9kit ${command} --help'\n`

/** Opens `path` for writing, refusing one of the command's own input files. */
async function openOutput(command: string, path: string, argv: readonly string[]): Promise<Writable> {
  const existing = await promisify(statFile)(path).catch(() => undefined)
  if (existing?.isFile()) {
    for (const arg of argv) {
      if (arg.startsWith('-')) continue
      const other = await promisify(statFile)(arg).catch(() => undefined)
      if (other && other.dev === existing.dev && other.ino === existing.ino) {
        throw new UsageError(`${command}: --output ${path} is also an input (${arg}): it would be emptied before it is read`)
      }
    }
  }
  const fd = await promisify(openFile)(path, 'w') // ENOENT, EACCES, EISDIR: reported by the program, exit 2
  return createWriteStream(path, { fd, autoClose: true, highWaterMark: 256 * 1024 })
}

function closed(stream: Writable): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.once('error', reject)
    stream.once('close', () => resolve())
    stream.end()
  })
}
