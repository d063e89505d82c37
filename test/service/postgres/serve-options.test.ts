/** `l9kit serve --store/--workers`: mistakes end with one clear line and exit 2 (no database needed). */
import { Readable, Writable } from 'node:stream'
import { expect, it } from 'vitest'
import type { Io } from '../../../src/cli/command.js'
import { main } from '../../../src/cli/program.js'
import { connect, PostgresStore } from '../../../src/service/store/postgres/index.js'

async function serve(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = ''
  let err = ''
  const sink = (add: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        add(chunk.toString())
        done()
      },
    })
  const controller = new AbortController()
  const io: Io = { stdin: Readable.from([]), stdout: sink((s) => (out += s)), stderr: sink((s) => (err += s)), stderrIsTTY: false, env, stopSignal: controller.signal }
  const code = await main(['serve', '--port', '0', ...argv], io)
  return { code, out, err }
}

it('refuses a --store that is not memory or a postgres:// URL', async () => {
  const run = await serve(['--store', 'mysql://localhost/x'])
  expect(run.code).toBe(2)
  expect(run.err).toMatch(/^l9kit serve: --store must be 'memory' or a postgres:\/\/ URL \(got mysql:\/\/localhost\/x\)\n$/)
})

it('does not echo the password of a mistyped URL', async () => {
  const run = await serve(['--store', 'postgress://user:hunter2-secret@127.0.0.1/x'])
  expect(run.code).toBe(2)
  expect(run.err).toContain('postgress://user:***@127.0.0.1/x')
  expect(run.err).not.toContain('hunter2')
})

it('refuses a store URL that names no database, from --store or L9KIT_DATABASE_URL, without connecting', async () => {
  const run = await serve(['--store', 'postgres://nobody:hunter2@127.0.0.1:1'])
  expect(run).toMatchObject({ code: 2, out: '' })
  expect(run.err).toBe("l9kit serve: the store URL postgres://nobody:***@127.0.0.1:1 names no database: add it to the path, as in postgres://nobody@127.0.0.1:1/DATABASE\n")
  const fromEnv = await serve([], { L9KIT_DATABASE_URL: 'postgresql://127.0.0.1/' })
  expect(fromEnv.code).toBe(2)
  expect(fromEnv.err).toMatch(/^l9kit serve: the store URL postgresql:\/\/127\.0\.0\.1\/ \(from L9KIT_DATABASE_URL\) names no database/)
  // The library refuses it too, before any connection.
  expect(() => connect('postgres://127.0.0.1:1')).toThrow(/names no database/)
  await expect(PostgresStore.open('postgres://127.0.0.1:1')).rejects.toThrow(/names no database/)
})

it('refuses --workers without a PostgreSQL store, and a bad --workers', async () => {
  expect(await serve(['--workers', '2'])).toMatchObject({ code: 2, err: expect.stringMatching(/--workers needs a PostgreSQL store/) })
  expect(await serve(['--workers', 'two'])).toMatchObject({ code: 2, err: expect.stringMatching(/--workers must be a positive integer \(got 'two'\)/) })
})

it('names the database it cannot reach, without a stack trace (also from L9KIT_DATABASE_URL)', async () => {
  const run = await serve([], { L9KIT_DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' })
  expect(run.code).toBe(2)
  expect(run.err).toMatch(/^l9kit serve: cannot use the store postgres:\/\/nobody:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/)
  expect(run.err).not.toContain('secret')
  expect(run.err).not.toMatch(/\n\s+at /)
  expect(run.out).toBe('')
})

it('--store memory is the default store', async () => {
  const controller = new AbortController()
  let out = ''
  const io: Io = {
    stdin: Readable.from([]),
    stdout: new Writable({
      write(chunk: Buffer, _enc, done) {
        out += chunk.toString()
        if (out.includes('listening on')) controller.abort()
        done()
      },
    }),
    stderr: new Writable({ write: (_c, _e, done) => done() }),
    stderrIsTTY: false,
    env: {},
    stopSignal: controller.signal,
  }
  expect(await main(['serve', '--port', '0', '--store', 'memory'], io)).toBe(0)
  expect(out).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n/)
})
