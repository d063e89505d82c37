/** `l9kit db`: apply or show the PostgreSQL store's schema migrations. */
import { parse } from '../args.js'
import type { Command } from '../command.js'
import { EXIT, UsageError } from '../command.js'
import { connect, isPostgresUrl, migrate, migrationStatus, readMigrations, shownUrl, storeUrlProblem } from '../../service/store/postgres/index.js'

const HELP = `Usage: l9kit db migrate|status [--store URL] [--schema NAME]

Manages the schema of the PostgreSQL store (see docs/service.md).

  migrate   applies the pending migrations, in one transaction under an advisory lock
            (l9kit serve --store does this at start too)
  status    lists every migration this l9kit knows, applied (with when) or pending;
            exits 1 when any is pending (so a deploy script can stop)

Options:
  --store URL      postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE
                   (default: the L9KIT_DATABASE_URL environment variable)
  --schema NAME    schema holding l9kit's tables (default public)
  -h, --help       this text

Exit codes: 0 done (status: nothing pending), 1 migrations pending (status), or the database
failed or refused, 2 usage error (a store URL that names no database among them).`

export const db: Command = {
  name: 'db',
  summary: "Apply or show the PostgreSQL store's schema migrations",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parse('db', argv, { store: { type: 'string' }, schema: { type: 'string' } })
    const [action, ...extra] = positionals
    if (action !== 'migrate' && action !== 'status') {
      throw new UsageError(`db: say what to do: 'l9kit db migrate' or 'l9kit db status' (got ${action === undefined ? 'nothing' : `'${action}'`})`)
    }
    if (extra.length > 0) throw new UsageError(`db: unexpected argument '${extra[0]}' (see 'l9kit db --help')`)
    const url = values.store ?? io.env.L9KIT_DATABASE_URL
    if (url === undefined || url === '') throw new UsageError('db: needs --store postgres://… (or the L9KIT_DATABASE_URL environment variable)')
    if (!isPostgresUrl(url)) throw new UsageError(`db: --store must be a postgres:// or postgresql:// URL (got ${shownUrl(url)})`)
    const problem = storeUrlProblem(url)
    if (problem !== null) throw new UsageError(`db: the store URL ${shownUrl(url)}${values.store === undefined ? ' (from L9KIT_DATABASE_URL)' : ''} ${problem}`)
    const schema = values.schema ?? 'public'

    const migrations = readMigrations()
    const sql = connect(url, { schema, max: 1 })
    try {
      if (action === 'migrate') {
        const applied = await migrate(sql, schema, migrations)
        const names = applied.map((v) => `${label(v)}-${migrations.find((m) => m.version === v)!.name}`)
        io.stdout.write(applied.length === 0 ? `${shownUrl(url)}: up to date\n` : `${shownUrl(url)}: applied ${names.join(', ')}\n`)
      } else {
        const status = await migrationStatus(sql, schema, migrations)
        for (const m of status) {
          io.stdout.write(`${label(m.version)}  ${m.name.padEnd(20)}  ${m.appliedAt === null ? 'pending' : `applied ${m.appliedAt}`}\n`)
        }
        const pending = status.filter((m) => m.appliedAt === null).map((m) => `${label(m.version)}-${m.name}`)
        if (pending.length > 0) {
          const what = pending.length === 1 ? '1 migration pending' : `${pending.length} migrations pending`
          io.stderr.write(`l9kit db: ${shownUrl(url)} (schema ${schema}): ${what}: ${pending.join(', ')}; apply with 'l9kit db migrate'\n`)
          return EXIT.failed
        }
      }
      return EXIT.ok
    } catch (error) {
      io.stderr.write(`l9kit db: ${shownUrl(url)}: ${(error as Error).message}\n`)
      return EXIT.failed
    } finally {
      await sql.end({ timeout: 5 })
    }
  },
}

const label = (version: number) => String(version).padStart(4, '0')
