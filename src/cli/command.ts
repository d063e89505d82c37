/** The shape every `l9kit` subcommand has, and the errors that end a command cleanly. */
import type { Readable, Writable } from 'node:stream'

export interface Io {
  stdin: Readable
  stdout: Writable
  stderr: Writable
  /** True when stderr is a terminal (progress bars are drawn only then). */
  stderrIsTTY: boolean
  env: NodeJS.ProcessEnv
  /** Resolves when the command should stop (SIGINT/SIGTERM); used by long-running commands. */
  stopSignal?: AbortSignal
  /**
   * True when the command has the process to itself (the `l9kit` binary, not a test or a host
   * program running it in-process): it may then change what is the process's as a whole, such
   * as its helper threads' priority (serve).
   */
  ownsProcess?: boolean
  /**
   * `-q/--quiet` (common-options.ts): leave out informational lines (summaries, progress bars,
   * hints, warnings); results, problems and errors are written as usual.
   */
  quiet?: boolean
  /**
   * `--max-errors N` (common-options.ts), for commands that list `'max-errors'` in `common`:
   * report at most N problems, then say how many more there were (problem-limit.ts).
   */
  maxErrors?: number
}

export interface Command {
  name: string
  /** One line for `l9kit --help`. */
  summary: string
  /** Full text for `l9kit <name> --help`: usage, every option, exit codes. */
  help: string
  /**
   * Common options (common-options.ts) the command honours besides the ones every command
   * takes (`-o/--output`, `-q/--quiet`): the program refuses the others for it.
   */
  common?: readonly 'max-errors'[]
  /** Runs the command; resolves to the exit code. */
  run(argv: string[], io: Io): Promise<number>
}

/** Exit codes shared by all subcommands. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const

/** A mistake of the user's (bad option, missing file): printed as one line, exit 2, no stack. */
export class UsageError extends Error {
  override name = 'UsageError'
}
