/**
 * Schema migrations: the versioned SQL files in migrations/postgres/ (`NNNN-name.sql`, shipped
 * with the package and found from its root), applied in version order, each recorded in
 * `l9kit_migrations`. All pending files run in one transaction that first takes an advisory
 * lock, so two processes starting together apply them once: the second waits, then finds
 * them recorded.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Sql } from 'postgres'
import { packageRoot } from '../../package-root.js'

export interface Migration {
  version: number
  name: string
  sql: string
}

export interface MigrationStatus {
  version: number
  name: string
  /** When it was applied (ISO 8601), or null when it is pending. */
  appliedAt: string | null
}

const FILE = /^(\d{4})-([a-z0-9-]+)\.sql$/

export const migrationsDir = () => join(packageRoot(), 'migrations', 'postgres')

/** The migration files, in version order; throws on a misnamed file or a repeated version. */
export function readMigrations(dir: string = migrationsDir()): Migration[] {
  const out: Migration[] = []
  for (const file of readdirSync(dir).sort()) {
    const match = FILE.exec(file)
    if (match === null) throw new Error(`${join(dir, file)}: a migration file is named NNNN-name.sql`)
    const version = Number(match[1])
    if (out.some((m) => m.version === version)) throw new Error(`${join(dir, file)}: version ${version} appears twice`)
    out.push({ version, name: match[2]!, sql: readFileSync(join(dir, file), 'utf8') })
  }
  return out
}

/** The lock key: one per schema, so stores in different schemas migrate independently. */
const lockKey = (schema: string) => `l9kit migrations ${schema}`

/**
 * Applies the pending migrations to `schema` (created when missing); returns the versions applied.
 * Refuses a database whose recorded migrations this version does not know (it is newer).
 */
export async function migrate(sql: Sql, schema: string, migrations: Migration[] = readMigrations()): Promise<number[]> {
  return sql.begin(async (tx) => {
    // A migration may rewrite every row (0004): the store's statement timeout is not for it.
    await tx`SET LOCAL statement_timeout = 0`
    await tx`SELECT pg_advisory_xact_lock(hashtext(${lockKey(schema)}))`
    await tx`CREATE SCHEMA IF NOT EXISTS ${tx(schema)}`
    await tx`SELECT set_config('search_path', ${quoteIdent(schema)}, true)`
    await tx`CREATE TABLE IF NOT EXISTS l9kit_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`
    const done = new Set((await tx<{ version: number }[]>`SELECT version FROM l9kit_migrations`).map((r) => r.version))
    const known = new Set(migrations.map((m) => m.version))
    const unknown = [...done].filter((v) => !known.has(v))
    if (unknown.length > 0) {
      throw new Error(`schema ${schema} has migration ${Math.max(...unknown)}, which this l9kit does not know: it was made by a newer version`)
    }
    const applied: number[] = []
    for (const m of migrations) {
      if (done.has(m.version)) continue
      await tx.unsafe(m.sql)
      await tx`INSERT INTO l9kit_migrations (version, name) VALUES (${m.version}, ${m.name})`
      applied.push(m.version)
    }
    return applied
  })
}

/** Every known migration with its state in `schema` (all pending when the schema is empty). */
export async function migrationStatus(sql: Sql, schema: string, migrations: Migration[] = readMigrations()): Promise<MigrationStatus[]> {
  const [exists] = await sql<{ t: string | null }[]>`SELECT to_regclass(${`${quoteIdent(schema)}.l9kit_migrations`}) AS t`
  const rows =
    exists?.t == null
      ? []
      : await sql<{ version: number; applied_at: Date }[]>`SELECT version, applied_at FROM ${sql(schema)}.l9kit_migrations`
  const applied = new Map(rows.map((r) => [r.version, r.applied_at.toISOString()]))
  return migrations.map((m) => ({ version: m.version, name: m.name, appliedAt: applied.get(m.version) ?? null }))
}

/** A schema name as an SQL identifier. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`
