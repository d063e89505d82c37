/** `npm run bench`: runs every bench/*.bench.ts in its own process, one after another. */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort()
let failed = 0
for (const file of files) {
  console.log(`\n== ${file}`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' })
  if (result.status !== 0) {
    failed++
    console.log(`${file} failed (exit ${result.status})`)
  }
}
process.exitCode = failed ? 1 : 0
