/**
 * A project that installs l9kit as a consumer does, without the network: its runtime
 * dependencies copied from this checkout (so npm finds them installed and asks the registry for
 * nothing), then l9kit itself installed from a package file or a git repository.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const ROOT = new URL('../..', import.meta.url).pathname

/** The runtime dependencies and theirs, from the lock file (all hoisted at the top here). */
export function runtimeClosure(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>
  }
  const seen = new Set<string>()
  const queue = Object.keys(pkg.dependencies)
  while (queue.length > 0) {
    const name = queue.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    const entry = lock.packages[`node_modules/${name}`]
    if (entry === undefined) throw new Error(`${name} is not at the top of node_modules; copy it by hand`)
    queue.push(...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }))
  }
  return [...seen].sort()
}

/** Makes `folder` a consumer project (ESM) with l9kit's runtime dependencies in its node_modules. */
export function consumerProject(folder: string): void {
  for (const dep of runtimeClosure()) cpSync(join(ROOT, 'node_modules', dep), join(folder, 'node_modules', dep), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
}
