/**
 * The README's "as a git dependency": `npm install git+file://…` of a repository holding the
 * working tree (its files as they would be committed), into a consumer project, without the
 * network. npm clones it, installs its development dependencies there (from npm's cache, which
 * `npm ci` filled) and runs its `prepare` script, the build: the installed package has its
 * `dist/`, its bin runs and its subpaths import.
 *
 * Without those packages in npm's cache (a checkout whose node_modules did not come from
 * `npm ci`), the install cannot be done offline: the test is skipped with a message, except
 * under CI=true.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, copyFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { consumerProject, ROOT } from '../support/consumer.js'
import { fileTempDir } from '../support/temp.js'

const run = promisify(execFile)
const dir = fileTempDir('l9kit-git-dependency-')

/** A git repository of the working tree's files (tracked and untracked-but-not-ignored), one commit. */
function repository(): string {
  const repo = join(dir, 'l9kit.git-source')
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 }).split('\0').filter((f) => f !== '')
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue // deleted in the working tree, not yet committed
    mkdirSync(dirname(join(repo, file)), { recursive: true })
    copyFileSync(join(ROOT, file), join(repo, file))
    chmodSync(join(repo, file), statSync(join(ROOT, file)).mode)
  }
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('-c', 'user.name=l9kit test', '-c', 'user.email=test@l9kit.invalid', 'commit', '-q', '-m', 'the working tree')
  return repo
}

describe('npm install git+file://… (a git dependency)', () => {
  it('builds the package with its prepare script: dist/ installed, the bin runs, the subpaths import', async (ctx) => {
    const repo = repository()
    const consumer = join(dir, 'consumer')
    consumerProject(consumer)
    const env = { ...process.env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
    const installed = await run('npm', ['install', '--no-save', `git+file://${repo}`], { cwd: consumer, env, timeout: 1_500_000, maxBuffer: 64 << 20 }).catch((error: { stdout: string; stderr: string; code: unknown }) => error)
    const output = `${installed.stdout}\n${installed.stderr}`
    if ('code' in installed && /ENOTCACHED/.test(output) && process.env.CI !== 'true') {
      console.warn("git dependency: npm's cache lacks the development dependencies (run `npm ci` once): skipped")
      return ctx.skip()
    }
    expect('code' in installed ? installed.code : 0, output.slice(-2000)).toBe(0)
    const installedRoot = join(consumer, 'node_modules', 'l9kit')
    expect(existsSync(join(installedRoot, 'dist', 'cli', 'main.js'))).toBe(true)
    expect(existsSync(join(installedRoot, 'src'))).toBe(false) // the package's files, not the repository's
    const version = await run(join(consumer, 'node_modules', '.bin', 'l9kit'), ['--version'], { cwd: consumer, timeout: 120_000 })
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
    writeFileSync(join(consumer, 'use.mjs'), "const { validate } = await import('l9kit/validate')\nconsole.log(validate({}).ok)\n")
    expect((await run(process.execPath, ['use.mjs'], { cwd: consumer, timeout: 120_000 })).stdout).toBe('false\n')
  }, 1_800_000)
})
