/** Migrations: applied once under concurrency, recorded, reported by `l9kit db`, refused when unknown. */
import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { packageRoot } from '../../../src/service/index.js'
import { BUILT_CLI } from '../../support/built-cli.js'
import { connect, migrate, migrationStatus, readMigrations, storeUrlProblem } from '../../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

const schemas: string[] = []
dropSchemasAfterAll(schemas)

function cli(args: string[]) {
  const root = packageRoot()
  // The built binary: tsx would compile the sources first, long on a busy machine.
  const run = spawnSync(process.execPath, [BUILT_CLI, 'db', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, L9KIT_DATABASE_URL: '' },
  })
  return { code: run.status, out: run.stdout, err: run.stderr }
}

describePostgres('PostgreSQL migrations', () => {
  const pools = [0, 1, 2, 3].map(() => connect(DATABASE_URL || 'postgres://unused/unused', { max: 1 }))
  afterAll(() => Promise.all(pools.map((p) => p.end({ timeout: 5 }))))
  let schema: string
  beforeAll(() => {
    schema = freshSchema()
    schemas.push(schema)
  })

  it('applies every file once when four processes start together', async () => {
    const applied = await Promise.all(pools.map((sql) => migrate(sql, schema)))
    const versions = readMigrations().map((m) => m.version)
    // Exactly one caller applied them all; the others waited on the lock, then found nothing to do.
    expect(applied.filter((a) => a.length > 0)).toEqual([versions])
    const status = await migrationStatus(pools[0]!, schema)
    expect(status.map((s) => [s.version, s.appliedAt !== null])).toEqual(versions.map((v) => [v, true]))
    expect(await migrate(pools[1]!, schema)).toEqual([])
  })

  it('refuses a schema migrated by a newer l9kit', async () => {
    await pools[0]!`INSERT INTO ${pools[0]!(schema)}.l9kit_migrations (version, name) VALUES (9999, 'future')`
    await expect(migrate(pools[0]!, schema)).rejects.toThrow(/migration 9999, which this l9kit does not know/)
    await pools[0]!`DELETE FROM ${pools[0]!(schema)}.l9kit_migrations WHERE version = 9999`
  })

  it('l9kit db status (exit 1 while migrations are pending, naming them) and migrate', async () => {
    const fresh = freshSchema()
    schemas.push(fresh)
    const names = readMigrations().map((m) => `${String(m.version).padStart(4, '0')}-${m.name}`)
    const before = cli(['status', '--store', DATABASE_URL, '--schema', fresh])
    expect(before.code).toBe(1)
    expect(before.out).toMatch(/^0001 {2}events +pending$/m)
    expect(before.err).toBe(`l9kit db: ${DATABASE_URL} (schema ${fresh}): ${names.length} migrations pending: ${names.join(', ')}; apply with 'l9kit db migrate'\n`)
    const run = cli(['migrate', '--store', DATABASE_URL, '--schema', fresh])
    expect(run.code, run.err).toBe(0)
    expect(run.out).toMatch(/applied 0001-events, 0002-hooks, 0003-held-index/)
    expect(cli(['migrate', '--store', DATABASE_URL, '--schema', fresh]).out).toMatch(/up to date/)
    const after = cli(['status', '--store', DATABASE_URL, '--schema', fresh])
    expect(after).toMatchObject({ code: 0, err: '' })
    expect(after.out).toMatch(/^0002 {2}hooks +applied \d{4}-/m)
    // One left behind (as after an upgrade): named, exit 1.
    const last = readMigrations().at(-1)!
    await pools[0]!`DELETE FROM ${pools[0]!(fresh)}.l9kit_migrations WHERE version = ${last.version}`
    expect(cli(['status', '--store', DATABASE_URL, '--schema', fresh])).toMatchObject({ code: 1, err: expect.stringContaining(`: 1 migration pending: ${names.at(-1)};`) })
  })
})

it('l9kit db: a clear error without a URL, with a wrong one, with one naming no database, or with nothing to do', () => {
  const noDatabase = cli(['status', '--store', 'postgres://nobody@127.0.0.1:5432/'])
  expect(noDatabase).toMatchObject({ code: 2, out: '' })
  expect(noDatabase.err).toBe("l9kit db: the store URL postgres://nobody@127.0.0.1:5432/ names no database: add it to the path, as in postgres://nobody@127.0.0.1:5432/DATABASE\n")
  for (const url of ['postgres://h', 'postgres://u@h:1/', 'postgresql://u:p@h:5432', 'postgres://h/a/b']) expect(storeUrlProblem(url), url).not.toBeNull()
  for (const url of ['postgres://h/db', 'postgresql://u:p@h:5432/l9kit?sslmode=require', 'postgres://h/my%20db']) expect(storeUrlProblem(url), url).toBeNull()
  expect(cli(['status'])).toMatchObject({ code: 2, err: expect.stringMatching(/needs --store postgres:\/\//) })
  expect(cli(['status', '--store', 'mysql://x'])).toMatchObject({ code: 2, err: expect.stringMatching(/must be a postgres:\/\/ or postgresql:\/\/ URL/) })
  expect(cli(['--store', 'postgres://x'])).toMatchObject({ code: 2, err: expect.stringMatching(/'l9kit db migrate' or 'l9kit db status'/) })
  const refused = cli(['status', '--store', 'postgres://nobody@127.0.0.1:1/none'])
  expect(refused.code).toBe(1)
  expect(refused.err).toMatch(/^l9kit db: postgres:\/\/nobody@127\.0\.0\.1:1\/none: .*ECONNREFUSED/)
  expect(refused.err).not.toMatch(/\n\s+at /) // no stack trace
})
