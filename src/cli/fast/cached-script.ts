/**
 * Loads a CommonJS file of dist/fast/ through `vm.Script` with its V8 code cache (`<file>.v8cache`,
 * written by code-cache.ts at build time after a run on sample input, so it holds the functions
 * a run compiles, not only the top level). Node 20 has no compile cache of its own
 * (module.enableCompileCache is Node 22); without one, compiling the command's code and the
 * validator's large functions on their first call is much of a short run's start-up.
 *
 * V8 rejects a cache made by another V8 version, with other flags or for a source of another
 * length, and then compiles the source as `require` would: same code, same result, only
 * slower. A damaged cache is another matter: release builds of V8 do not check a code cache's
 * checksum unless `--verify-snapshot-checksum` is on, and deserialising damaged bytes aborts the
 * process. So the flag is on while a cache is made and while one is read (and only then: it is
 * part of V8's flag hash, which Node's own built-in code cache is checked against).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Script } from 'node:vm'
import { CACHE_SUFFIX } from './commands.js'

const nodeRequire = createRequire(import.meta.url)
const builtin = <T>(name: string) => nodeRequire(name) as T
let vm: typeof import('node:vm') | undefined
let v8: typeof import('node:v8') | undefined

/** Every script loaded here, by file, and what it exports (code-cache.ts writes their caches). */
export const loadedScripts = new Map<string, { script: Script; exports: unknown }>()

/** Runs `use` with V8 checking (or, making a cache, writing) code cache checksums. */
export function withChecksums<T>(use: () => T): T {
  v8 ??= builtin<typeof import('node:v8')>('node:v8')
  v8.setFlagsFromString('--verify-snapshot-checksum')
  try {
    return use()
  } finally {
    v8.setFlagsFromString('--no-verify-snapshot-checksum')
  }
}

/**
 * Loads the CommonJS file `file` (once) and returns its exports; `useCache`: read its code cache
 * when there is one. Its `require('./validators/…')` calls load those files the same way.
 */
export function requireCached(file: string, useCache = true): unknown {
  const seen = loadedScripts.get(file)
  if (seen) return seen.exports
  vm ??= builtin<typeof import('node:vm')>('node:vm')
  const source = readFileSync(file, 'utf8')
  let cachedData: Buffer | undefined
  if (useCache) {
    try {
      cachedData = readFileSync(file + CACHE_SUFFIX)
    } catch {
      // No cache (not built, or removed): compiled from the source.
    }
  }
  const Script = vm.Script
  const wrapped = builtin<{ wrap(source: string): string }>('node:module').wrap(source)
  const script = cachedData === undefined ? new Script(wrapped, { filename: file }) : withChecksums(() => new Script(wrapped, { filename: file, cachedData }))
  const module = { exports: {} as unknown }
  loadedScripts.set(file, { script, exports: module.exports })
  const own = createRequire(file)
  const here = dirname(file)
  // The files a build keeps apart (each document's validator) come through here too, with their caches.
  const require = Object.assign((id: string) => (id.startsWith('./validators/') ? requireCached(join(here, id), useCache) : own(id)), { resolve: own.resolve, cache: own.cache })
  ;(script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, require, module, file, here)
  loadedScripts.get(file)!.exports = module.exports
  return module.exports
}
