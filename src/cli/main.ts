#!/usr/bin/env node
/** Entry point of the `l9kit` binary: wires the process to the program. */
import { EXIT } from './command.js'
import { prestart, stopPrestarted } from './parallel/prestart.js'
import { watchParent } from './stop.js'

// Before the program loads: workers for `--jobs` boot meanwhile (see prestart.ts).
prestart(process.argv.slice(2), new URL('./jobs-worker.js', import.meta.url))
const { main } = await import('./program.js')

const controller = new AbortController()
const stop = () => controller.abort()
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
// Run by npm (npm start, npx): npm's signals reach its shell, not us; stop when it has gone.
if (process.env.npm_lifecycle_event !== undefined) watchParent(stop)
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(EXIT.ok)
})
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env,
  stopSignal: controller.signal,
  ownsProcess: true,
})
stopPrestarted()
