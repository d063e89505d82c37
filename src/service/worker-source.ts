/**
 * Finding a worker thread's module: in the built package it is an entry of its own (dist/…js);
 * run from source (tests, the bench), it is a TypeScript file, which the worker can load only
 * with tsx (a development dependency) registered in it first.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** The first of `candidates` (relative to `base`, a module's URL) that exists and can be run; undefined if none. */
export function workerModule(candidates: readonly string[], base: string): URL | undefined {
  for (const candidate of candidates) {
    const url = new URL(candidate, base)
    if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) continue
    if (!url.pathname.endsWith('.ts') || tsxAvailable()) return url
  }
  return undefined
}

/** What `new Worker()` is given for a module: a TypeScript one through a bootstrap that registers tsx. */
export function runnable(url: URL): URL {
  return url.pathname.endsWith('.ts') ? fromSource(url) : url
}

/**
 * The bootstrap of a TypeScript module: registers tsx in the worker, then imports it. (`--import
 * tsx` in the worker's execArgv does not apply to the worker's own entry module on Node 20.)
 */
function fromSource(url: URL): URL {
  const tsx = import.meta.resolve('tsx/esm/api')
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(url.href)})`
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`)
}

/**
 * Whether tsx can be loaded, asked once per process: from source, import.meta.resolve is a
 * synchronous round trip to the module loader's thread, and a large ingest asks at its start
 * (a stall of the thread that answers lookups, measured at a few ms under load).
 */
let tsx: boolean | undefined
function tsxAvailable(): boolean {
  if (tsx !== undefined) return tsx
  try {
    import.meta.resolve('tsx/esm/api')
    tsx = true
  } catch {
    tsx = false
  }
  return tsx
}
