/**
 * vitest global set-up: a throwaway PostgreSQL for the tests that need one, so that `npm test`
 * runs them wherever the server binaries are (scripts/pg-cluster.sh finds them). A URL already
 * in L9KIT_TEST_DATABASE_URL is used as it is. Without binaries those tests skip and say so;
 * under CI=true a missing PostgreSQL fails the run instead.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('../../scripts/pg-cluster.sh', import.meta.url))

export default function setup(): (() => void) | undefined {
  if (process.env.L9KIT_TEST_DATABASE_URL) return undefined
  let exports: string
  try {
    exports = execFileSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const reason = String((error as { stderr?: string }).stderr ?? (error as Error).message).trim()
    if (process.env.CI === 'true') throw new Error(`CI=true needs PostgreSQL for the store tests, and none could be started: ${reason}`)
    process.stderr.write(`PostgreSQL tests will be skipped: ${reason}\n`)
    return undefined
  }
  for (const line of exports.split('\n')) {
    const m = /^export (\w+)=(.*)$/.exec(line.trim())
    if (m) process.env[m[1]!] = m[2]!
  }
  const dir = process.env.L9KIT_PG_CLUSTER_DIR!
  return () => {
    execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' })
  }
}
