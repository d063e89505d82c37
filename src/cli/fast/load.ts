/**
 * main.ts's choice of how a command starts: a stream command from its one-file build with its
 * code cache (dist/fast/<name>.cjs, see cached-script.ts) when the package has it, which saves
 * most of what loading the ES module chunks costs a short run; anything else, or these when run
 * from source or with L9KIT_FAST=0, from the ES modules. Both run the same code.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { requireCached } from './cached-script.js'
import { FAST_COMMANDS } from './commands.js'
import type { FastEntry } from './entry.js'

/** The one-file build's `start` for the command `name`, from the folder `dir`; undefined: none. */
export function fastStart(name: string | undefined, dir: URL, env: NodeJS.ProcessEnv = process.env): FastEntry['start'] | undefined {
  if (name === undefined || !(FAST_COMMANDS as readonly string[]).includes(name) || env.L9KIT_FAST === '0') return undefined
  const file = fileURLToPath(new URL(`${name}.cjs`, dir))
  if (!existsSync(file)) return undefined
  return (requireCached(file) as FastEntry).start
}
