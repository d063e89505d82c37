/**
 * The PostgreSQL the tests run against: its URL comes from L9KIT_TEST_DATABASE_URL (see
 * scripts/pg-cluster.sh, which makes a throwaway cluster and sets it). Without it the tests
 * are skipped with a message, except under CI=true, where a missing database fails the run.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, it } from 'vitest'
import { connect } from '../../../src/service/store/postgres/index.js'

export const DATABASE_URL = process.env.L9KIT_TEST_DATABASE_URL ?? ''

const MISSING =
  'L9KIT_TEST_DATABASE_URL is not set: the PostgreSQL tests are skipped. Run them with ' +
  '`scripts/pg-cluster.sh run npx vitest run test/service/postgres`'

/**
 * `describe` for tests that need PostgreSQL: skipped (and said so) when there is none,
 * a failing test instead under CI=true.
 */
export function describePostgres(name: string, body: () => void): void {
  if (DATABASE_URL !== '') {
    describe(name, body)
    return
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has a PostgreSQL to run against', () => {
        throw new Error('CI=true needs PostgreSQL, but L9KIT_TEST_DATABASE_URL is not set (scripts/pg-cluster.sh start makes one and prints it)')
      })
    })
    return
  }
  console.warn(`${name}: ${MISSING}`)
  describe.skip(name, body)
}

/** A schema name no other test uses: `t_` + random hex. */
export const freshSchema = () => `t_${randomBytes(6).toString('hex')}`

/** Drops the schemas named after the current test file ends. */
export function dropSchemasAfterAll(names: string[]): void {
  afterAll(async () => {
    if (DATABASE_URL === '' || names.length === 0) return
    const sql = connect(DATABASE_URL, { max: 1 })
    try {
      for (const name of names) await sql`DROP SCHEMA IF EXISTS ${sql(name)} CASCADE`
    } finally {
      await sql.end({ timeout: 5 })
    }
  })
}
