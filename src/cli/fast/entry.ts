/**
 * What a stream command's one-file build (dist/fast/<name>.cjs) exports: `start`, which main.ts
 * calls as it calls start.ts for the ES modules, and `main`, the command as the program runs it
 * (code-cache.ts runs it on sample input before it writes the code cache).
 */
import type { Command, Io } from '../command.js'
import { runCommand } from '../run-command.js'
import { start as startProgram } from '../start.js'
import { FAST_COMMANDS } from './commands.js'

/** The exports of a one-file build. */
export interface FastEntry {
  start(argv: string[], workerUrl: URL): Promise<void>
  main(argv: string[], io: Io): Promise<number>
}

/** The one-file build's exports for `command`. */
export function entryOf(command: Command): FastEntry {
  // Every command built this way takes --max-errors (a test holds FAST_COMMANDS to their
  // `common`), so the refusal that would list them is not reached from here.
  const main = (argv: string[], io: Io) => runCommand(command.name, command, argv.slice(1), io, async () => [...FAST_COMMANDS])
  return { main, start: (argv, workerUrl) => startProgram(argv, workerUrl, async () => main) }
}
