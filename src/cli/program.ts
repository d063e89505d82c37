/** The `l9kit` program: dispatches to one subcommand per file under ./commands (loaded on use). */
import type { Io } from './command.js'
import { EXIT } from './command.js'
import { commands } from './commands/index.js'
import { printable } from '../validate/printable.js'
import { runCommand } from './run-command.js'
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
  return runCommand(name, await entry.load(), rest, io, honouring)
}

/** The commands that take `--max-errors`, for the message refusing it elsewhere (loads them all: only then). */
async function honouring(): Promise<string[]> {
  const names: string[] = []
  for (const entry of commands) if ((await entry.load()).common?.includes('max-errors')) names.push(entry.name)
  return names
}
