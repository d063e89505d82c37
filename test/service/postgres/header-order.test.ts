/**
 * Migration 0004: events stored before the canonical header order (names sorted on their
 * UTF-8 bytes) get their header maps rewritten in that order, and nothing else of them moves.
 */
import { afterAll, expect, it } from 'vitest'
import { normalize, serializeEvent } from '../../../src/normalize/index.js'
import { connect, migrate, readMigrations } from '../../../src/service/store/postgres/index.js'
import { DATABASE_URL, describePostgres, dropSchemasAfterAll, freshSchema } from './database.js'

const schemas: string[] = []
dropSchemasAfterAll(schemas)

/** A canonical event's text with its header written in the given (tool's) order, as 0.1 stored it. */
function storedBefore(header: [string, string][], extra = ''): { old: string; now: string } {
  const r = normalize({ event_type: 'service', ip: '192.0.2.1', port: 80, http: { header: Object.fromEntries(header) } })
  if (!r.ok) throw new Error('unreachable')
  const now = serializeEvent(r.event)
  const map = `{${header.map(([n, v]) => `${JSON.stringify(n)}:${JSON.stringify(v)}`).join(',')}}`
  const old = now.replace(/"header":\{.*?\},"title"/, () => `"header":${map},"title"`)
  return extra === '' ? { old, now } : { old: `${old.slice(0, -1)},${extra}}`, now: `${now.slice(0, -1)},${extra}}` }
}

describePostgres('migration 0004-header-order', () => {
  const sql = connect(DATABASE_URL || 'postgres://unused/unused', { max: 1 })
  afterAll(() => sql.end({ timeout: 5 }))

  it('rewrites stored header maps in byte order, leaving every other byte as it was', async () => {
    const schema = freshSchema()
    schemas.push(schema)
    await migrate(sql, schema, readMigrations().filter((m) => m.version < 4))
    const cases = [
      storedBefore([['content-type', 'text/html'], ['X-B', '<&>'], ['Date', 'Mon'], ['9', 'i'], ['10', 'j']]),
      storedBefore([['\u{1f600}', 'astral'], ['\ue000', 'private'], ['a"q', 'quote'], ['a#', 'hash']]),
      // An unknown member that looks like the map stays as it is.
      storedBefore([['b', '1'], ['a', '2']], '"x_copy":{"b":"1","a":"2"}'),
      storedBefore([['A', '1'], ['b', '2']]), // sorted already
      storedBefore([]),
    ]
    let n = 0
    for (const c of cases) {
      n++
      await sql`INSERT INTO ${sql(schema)}.events (identity, json, event_type, severity, first_seen, last_seen)
        VALUES (${Buffer.from([n])}, ${c.old}, 'service', '', 0, 0)`
    }
    expect(cases.filter((c) => c.old !== c.now)).toHaveLength(3)
    expect(await migrate(sql, schema)).toEqual(readMigrations().filter((m) => m.version >= 4).map((m) => m.version))
    const rows = await sql<{ json: string }[]>`SELECT json FROM ${sql(schema)}.events ORDER BY id`
    expect(rows.map((r) => r.json)).toEqual(cases.map((c) => c.now))
    expect(rows[0]!.json).toContain('"header":{"10":"j","9":"i","Date":"Mon","X-B":"<&>","content-type":"text/html"}')
  })
})
