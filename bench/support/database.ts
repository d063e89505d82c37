/**
 * The PostgreSQL a benchmark runs against: L9KIT_BENCH_DATABASE_URL or L9KIT_TEST_DATABASE_URL
 * when given, else a throwaway cluster made with scripts/pg-cluster.sh, which `stop()` removes
 * (a no-op for a database that was given).
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { packageRoot } from '../../src/service/index.js'

export interface BenchDatabase {
  url: string
  stop(): void
}

export function benchDatabase(): BenchDatabase {
  const given = process.env.L9KIT_BENCH_DATABASE_URL || process.env.L9KIT_TEST_DATABASE_URL || ''
  if (given !== '') return { url: given, stop: () => undefined }
  const script = join(packageRoot(), 'scripts/pg-cluster.sh')
  const out = execFileSync(script, ['start'], { encoding: 'utf8' })
  const dir = /L9KIT_PG_CLUSTER_DIR=(\S+)/.exec(out)![1]!
  return { url: /L9KIT_TEST_DATABASE_URL=(\S+)/.exec(out)![1]!, stop: () => void execFileSync(script, ['stop', dir]) }
}
