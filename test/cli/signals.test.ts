/**
 * Started as a user starts them, `npm start` (the service) and `npx l9kit hooks listen` stop on
 * SIGTERM or SIGINT sent to the process that was started (npm), and leave nothing behind: the
 * port is free again. npm runs a script through `sh -c` and passes signals to that shell only;
 * `start` execs node, and the CLI run by npm stops when its parent goes away (src/cli/stop.ts).
 *
 * One case is npm's and dash's, not ours: SIGINT sent to the npx process alone reaches its
 * `sh -c`, which (as a non-interactive shell waiting for a command) holds it until the command
 * ends, so the command never hears of it. Ctrl-C at a terminal sends SIGINT to the whole
 * foreground process group, which is how that case is tested (docs/hooks.md says so).
 *
 * `npm start --ignore-scripts` leaves out `prestart` (a tsup build): it would empty dist/ while
 * other test files run the built CLI; `npm test` has built it already.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { running } from '../support/running.js'

const ROOT = join(import.meta.dirname, '..', '..')
const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', NO_COLOR: '1' }

/** Starts `command args` in the project and waits for its `listening on http://HOST:PORT` line. */
async function start(command: string, args: string[]): Promise<{ child: ChildProcess; port: number; exited: Promise<void> }> {
  // Its own process group, as a shell's job: a terminal's Ctrl-C is SIGINT to the group.
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Whatever happens, nothing of it outlives the test (the group: npm, its shell, the CLI).
  onTestFinished(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // already gone
    }
  })
  let text = ''
  const port = await new Promise<number>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      text += chunk.toString()
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)
      if (m) resolve(Number(m[1]))
    }
    child.stdout!.on('data', look)
    child.stderr!.on('data', look)
    void exited.then(() => reject(new Error(`${command} ${args.join(' ')} exited before listening:\n${text}`)))
  })
  return { child, port, exited }
}

/** True when nothing accepts connections on the port and it can be listened on again. */
async function portFree(port: number): Promise<boolean> {
  const refused = await new Promise<boolean>((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
  if (!refused) return false
  return new Promise<boolean>((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}

/** Waits (bounded: 10 s) for the port to be free; the CLI notices its parent's end within 250 ms. */
async function freed(port: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    if (await portFree(port)) return true
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}

describe('signals to the process the user started', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm start: ${signal} to npm stops the service and frees its port`, async () => {
      const { child, port, exited } = await start('npm', ['start', '--ignore-scripts', '--', '--port', '0'])
      expect(await portFree(port)).toBe(false)
      child.kill(signal)
      await exited
      expect(await freed(port)).toBe(true)
    })

    it(`npx l9kit hooks listen: ${signal === 'SIGINT' ? 'Ctrl-C (SIGINT to its process group)' : 'SIGTERM to npx'} stops the receiver and frees its port`, async () => {
      const { child, port, exited } = await start('npx', ['l9kit', 'hooks', 'listen', '--port', '0'])
      expect(await portFree(port)).toBe(false)
      if (signal === 'SIGINT') process.kill(-child.pid!, signal)
      else child.kill(signal)
      await exited
      expect(await freed(port)).toBe(true)
    })
  }
})

describe('the demo key banner', () => {
  it('has its columns aligned', async () => {
    const run = running(['serve', '--port', '0'])
    await run.url()
    await run.stop()
    const rows = run.stdout.text.split('\n').filter((line) => /^ {2}(anonymous|registered|pro|admin) /.test(line))
    expect(rows).toHaveLength(4)
    // Each column starts where the column above it starts.
    const starts = rows.map((row) => [...row.matchAll(/ {2}(\S)/g)].map((m) => m.index))
    for (const row of starts) expect(row).toEqual(starts[0])
    expect(rows[3]).toMatch(/authorization: Bearer l9kit-demo-admin +POST \/admin\/events$/)
  })
})
