#!/usr/bin/env node
/**
 * Entry point of the `l9kit` binary: a stream command from its one-file build when the package
 * has one (fast/load.ts), everything else from the ES modules; start.ts wires the process to it.
 */
import { fastStart } from './fast/load.js'

const argv = process.argv.slice(2)
// The `--jobs` workers' entry (see parallel/prestart.ts).
const workerUrl = new URL('./jobs-worker.js', import.meta.url)
const fast = fastStart(argv[0], new URL('../fast/', import.meta.url))
if (fast !== undefined) await fast(argv, workerUrl)
else {
  const { start } = await import('./start.js')
  await start(argv, workerUrl, async () => (await import('./program.js')).main)
}
