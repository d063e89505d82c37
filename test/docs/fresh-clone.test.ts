/**
 * A fresh clone on a machine without the project's global installs, following the README:
 * the working tree's files (what `git ls-files` holds, untracked ones that would be committed
 * too: the tree as it would be cloned) copied to a temporary folder; `npm start` there (its
 * `prestart` builds the clone's own dist/); `npm link` and `l9kit --version` as the README says,
 * with npm's global folder in the test's own prefix and a PATH with nothing of the project on
 * it until then; then every other README block, run as written by the doc runner from the
 * clone's folder against the service `npm start` started; then `npm test` for one folder;
 * then SIGTERM to `npm start`, which must leave its port free.
 *
 * What it does not do, and why (CI's time): `npm ci` (a full install takes a minute or more
 * here; the clone gets a hard-linked copy of this checkout's node_modules, which `npm ci`
 * would have made from the same lock file), and the whole of `npm test` (about ten minutes;
 * it runs `npm test -- test/time`, the same script and global set-up; its pretest, the build
 * `npm start` has just done, is left out with --ignore-scripts).
 */
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs'
import { connect } from 'node:net'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from '../corpus/files.js'
import { fileTempDir } from '../support/temp.js'
import { docEnv, freePort, projectWithL9kit, startService, stopService } from './context.js'
import { blocksOf } from './markdown.js'
import { type DocContext, failures, runDoc } from './runner.js'

const exec = promisify(execFile)
const dir = fileTempDir('l9kit-fresh-clone-')
const clone = join(dir, 'l9kit')
const prefix = join(dir, 'npm-global')
/** A machine's PATH without the project: node and npm, the system's tools, npm's global bin (empty until `npm link`). */
const PATH = [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':')
const env: NodeJS.ProcessEnv = { ...docEnv(undefined), PATH, npm_config_prefix: prefix, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' }

/** The files a clone of the working tree holds. */
function copyTree(): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\0').filter((f) => f !== '')
  for (const file of files) {
    let mode: number
    try {
      mode = statSync(join(ROOT, file)).mode
    } catch {
      continue // deleted in the working tree, not yet committed
    }
    mkdirSync(dirname(join(clone, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(clone, file))
    chmodSync(join(clone, file), mode)
  }
}

/** Whether a connection to 127.0.0.1:PORT is refused (nothing listens there). */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })
}

let service: Awaited<ReturnType<typeof startService>> | undefined

describe('a fresh clone, following the README', () => {
  beforeAll(async () => {
    copyTree()
    try {
      execFileSync('cp', ['-al', join(ROOT, 'node_modules'), join(clone, 'node_modules')], { stdio: 'ignore' })
    } catch {
      // The temporary folder on another file system than the checkout: no hard links across it.
      rmSync(join(clone, 'node_modules'), { recursive: true, force: true })
      symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'))
    }
  }, 360_000)
  afterAll(async () => {
    if (service) await stopService(service.child)
  })

  it('l9kit is not on the PATH before the README says how to put it there', async () => {
    await expect(exec('bash', ['-c', 'command -v l9kit'], { cwd: clone, env })).rejects.toMatchObject({ code: 1 })
  })

  it('npm start builds the clone and serves; npm link puts l9kit on the PATH; every README block then runs as written', async () => {
    const args = (await refused(8080)) ? ['start'] : ['start', '--', '--port', '0'] // 8080 may be another program's
    service = await startService('npm', args, clone, env)
    expect(service.output()).toMatch(/> tsup --silent\n[^]*listening on http:\/\/127\.0\.0\.1:\d+/) // built, then served
    const readme = blocksOf(join(clone, 'README.md')).map((b) => ({ ...b, file: 'README.md' }))
    const setUp = readme.filter((b) => b.marker?.kind === 'run-by' && b.marker.path === 'test/docs/fresh-clone.test.ts')
    expect(setUp.map((b) => b.text.split('\n')[0])).toEqual([expect.stringMatching(/^npm ci && npm start/), expect.stringMatching(/^npm link/)])
    // The second of them, as written: npm link, then l9kit from the PATH.
    const linked = await exec('bash', ['-c', `set -e\n${setUp[1]!.text}`], { cwd: clone, env })
    expect(linked.stdout).toContain('0.2.0')
    const ctx: DocContext = {
      root: clone,
      cwd: clone,
      project: projectWithL9kit(clone, join(dir, 'project')),
      env: { ...env, L9KIT_BASE_URL: `http://127.0.0.1:${service.port}` },
      port: service.port,
      listenPort: await freePort(),
    }
    const others = readme.filter((b) => !setUp.includes(b))
    const results = await runDoc(others, ctx)
    expect(failures(results)).toEqual([])
    expect(results.filter((r) => r.status === 'passed').length).toBeGreaterThanOrEqual(4)
  }, 540_000)

  it('npm test runs in the clone (one folder of it: the whole suite takes CI ten minutes)', async () => {
    // `npm start` built dist/ a moment ago: its pretest (the same build) is left out, and the
    // throwaway PostgreSQL this run's own set-up started is handed on instead of a second one.
    const database = process.env.L9KIT_TEST_DATABASE_URL
    const testEnv = database === undefined ? env : { ...env, L9KIT_TEST_DATABASE_URL: database }
    const { stdout } = await exec('npm', ['test', '--ignore-scripts', '--', 'test/time'], { cwd: clone, env: testEnv, timeout: 170_000, maxBuffer: 16 << 20 })
    expect(stdout).toMatch(/Tests\s+\d+ passed/)
  }, 540_000)

  it('SIGTERM to npm start stops the service and frees its port', async () => {
    const { child, port } = service!
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM') // npm's own process, as `kill PID` of the npm start a user ran
    await exited
    service = undefined
    expect(await refused(port)).toBe(true)
  })
})
