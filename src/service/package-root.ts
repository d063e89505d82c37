/**
 * Finding the installed package's own files (the bundled corpus, the PostgreSQL migrations,
 * the version for the hook user agent) from this module's location, so it works from src/
 * (tsx) and from dist/ (bundled) alike. It imports nothing of the service: every layer may use it.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The directory holding l9kit's package.json. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from)
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }
      if (pkg.name === 'l9kit') return dir
    } catch {
      // no package.json here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) throw new Error(`cannot find l9kit's package.json above ${from}`)
    dir = parent
  }
}
