/**
 * What the `l9kit` binary does around its program, whichever build runs it (the ES modules, or
 * a stream command's one file under fast/): `--jobs` workers started before the command loads,
 * SIGINT/SIGTERM and a closed standard output ending it cleanly, its exit code.
 */
import type { Io } from './command.js'
import { EXIT } from './command.js'
import { prestart, stopPrestarted } from './parallel/prestart.js'
import { watchParent } from './stop.js'

/** Runs `program` on the process's arguments `argv`; `workerUrl`: the `--jobs` workers' entry. */
export async function start(argv: string[], workerUrl: URL, program: () => Promise<(argv: string[], io: Io) => Promise<number>>): Promise<void> {
  // Before the program loads: workers for `--jobs` boot meanwhile (see prestart.ts).
  prestart(argv, workerUrl)
  const run = await program()
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // Run by npm (npm start, npx): npm's signals reach its shell, not us; stop when it has gone.
  if (process.env.npm_lifecycle_event !== undefined) watchParent(stop)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok)
  })
  process.exitCode = await run(argv, {
    // Made when a command reads it (commonIo, openInputs): process.stdin of a file or a
    // terminal loads stream modules a command given FILEs does not need.
    get stdin() {
      return process.stdin
    },
    stdout: process.stdout,
    stderr: process.stderr,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    env: process.env,
    stopSignal: controller.signal,
    ownsProcess: true,
  })
  stopPrestarted()
}
