/**
 * A cancelled search statement hands its connection back only once the server has taken the
 * cancel: PostgreSQL cancels whatever the backend runs when the request lands, so a cancel still
 * on its way when the statement finished would stop the next request's statement on that
 * connection (an export of another client cut, or answered 422). No database needed: the
 * driver's query is a fake whose cancel request is delivered when the test says. And on
 * PostgreSQL: a statement stopped after some of its rows came leaves the connection's next
 * statement its own rows (the driver's row count is reset), not holes before them.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { connect } from '../../../src/service/store/postgres/connect.js'
import { bounded, reserved } from '../../../src/service/store/postgres/search.js'
import { DATABASE_URL, describePostgres } from './database.js'

/** A statement that finishes on its own (`finish`), whose cancel is delivered on `deliver`. */
function fakeStatement() {
  let finish!: (rows: string[]) => void
  let deliver!: () => void
  const delivered = new Promise<void>((resolve) => (deliver = resolve))
  const result = new Promise<string[]>((resolve) => (finish = resolve))
  let cancels = 0
  const query = Object.assign(result, {
    cancel: () => {
      cancels++
      return delivered
    },
  })
  return { query, finish, deliver, cancels: () => cancels }
}

describe('bounded: a cancelled statement settles after its cancel is delivered', () => {
  it('waits for the cancel request when the statement finished before it landed', async () => {
    const s = fakeStatement()
    const controller = new AbortController()
    let settled = false
    const running = bounded(s.query, { timeoutMs: 1_000, signal: controller.signal }).then(
      () => (settled = true),
      () => (settled = true),
    )
    controller.abort(new Error('the client went away'))
    // The statement's rows arrive before the cancel reached the server…
    s.finish(['row'])
    for (let i = 0; i < 20; i++) await Promise.resolve()
    await new Promise((resolve) => setImmediate(resolve))
    expect(s.cancels()).toBe(1)
    // …so the connection is not free yet: the late cancel would land on its next statement.
    expect(settled).toBe(false)
    s.deliver()
    await running
    expect(settled).toBe(true)
  })

  it('does not wait when nothing was cancelled', async () => {
    const s = fakeStatement()
    const running = bounded(s.query, { timeoutMs: 1_000, signal: new AbortController().signal })
    s.finish(['row'])
    await expect(running).resolves.toEqual(['row'])
    expect(s.cancels()).toBe(0)
  })
})

describePostgres('a search statement stopped mid-stream leaves its connection clean', () => {
  it('the next statement on the connection gets its own rows, no holes before them', async () => {
    const application = `l9kit cancel ${randomBytes(4).toString('hex')}`
    // One connection: the statement after the stopped one runs where it ran.
    const sql = connect(DATABASE_URL, { max: 1, application })
    try {
      const controller = new AbortController()
      // Three rows far larger than the server's output buffer (so they are sent), then a sleep.
      const stopped = reserved(sql, (c) =>
        bounded(c.unsafe(`SELECT CASE WHEN g < 4 THEN repeat('x', 200000) ELSE pg_sleep(60)::text END FROM generate_series(1, 4) AS g`).raw(), {
          timeoutMs: 60_000,
          signal: controller.signal,
        }),
      ).then(
        () => 'finished',
        () => 'stopped',
      )
      const watcher = connect(DATABASE_URL, { max: 1 })
      try {
        // The rows are out once the statement sleeps (bounded by the test's timeout).
        for (;;) {
          const [row] = await watcher<{ n: string }[]>`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = ${application} AND wait_event = 'PgSleep'`
          if (Number(row!.n) > 0) break
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      } finally {
        await watcher.end({ timeout: 1 })
      }
      controller.abort(new Error('the client went away'))
      expect(await stopped).toBe('stopped')
      const next = (await reserved(sql, (c) => bounded(c.unsafe('SELECT 7 AS n').raw(), { timeoutMs: 60_000 }))) as unknown as Buffer[][]
      expect(next.length).toBe(1)
      expect(next[0]?.[0]?.toString()).toBe('7')
    } finally {
      await sql.end({ timeout: 1 })
    }
  })
})
