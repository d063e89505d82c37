/**
 * docs/languages.md's TypeScript steps followed in a new folder, as a developer would: `npm init
 * -y` (a CommonJS project), `"type": "module"`, the package file `npm pack` writes installed,
 * TypeScript, the doc's tsconfig.json and app.ts, `npx tsc`, then the program's output as the
 * doc shows it. And what the doc says of CommonJS: `require('l9kit')` fails, `import()` works.
 *
 * Without the network, two steps are done the offline way (nothing else of the doc is changed):
 * the package's runtime dependencies are copied from this checkout into the project first, so
 * `npm install` of the package file finds them installed (as test/package/pack.test.ts does);
 * and `npm install --save-dev typescript @types/node` is replaced by links to this checkout's
 * copies of the same two packages.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { validateDocument } from '../../src/validate/index.js'
import { runtimeClosure } from '../support/consumer.js'
import { fileTempDir } from '../support/temp.js'
import { followSection, sectionBlocks } from './follow-doc.js'
import { CONFORM_REPORT, ERROR_BODY, ROOT } from './support.js'

const exec = promisify(execFile)
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }

describe('TypeScript, as docs/languages.md says', () => {
  const start = fileTempDir('l9kit-ts-doc-')
  let folder = ''
  let output = ''

  beforeAll(async () => {
    // The package file, unpacked beside itself: L9KIT is `package/`, the file is `package/../l9kit-<version>.tgz`.
    // --ignore-scripts: its `prepare` (the build) would empty dist/ while other tests use it.
    await exec('npm', ['pack', '--ignore-scripts', '--pack-destination', start, '--silent'], { cwd: ROOT, timeout: 240_000 })
    await exec('tar', ['-xzf', `l9kit-${pkg.version}.tgz`], { cwd: start })
    const modules = join(start, 'myapp', 'node_modules')
    mkdirSync(modules, { recursive: true })
    for (const dep of runtimeClosure()) cpSync(join(ROOT, 'node_modules', dep), join(modules, dep), { recursive: true })
    const links = `mkdir -p node_modules/.bin node_modules/@types && ln -s ${ROOT}/node_modules/typescript node_modules/typescript && ln -s ../typescript/bin/tsc node_modules/.bin/tsc && ln -s ${ROOT}/node_modules/@types/node node_modules/@types/node && npm pkg set devDependencies.typescript=5 devDependencies.@types/node=20`
    const env = { ...process.env, L9KIT: join(start, 'package'), npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' }
    folder = await followSection('TypeScript', {
      start,
      env,
      edit: (text) => text.replace(/^npm install --save-dev typescript @types\/node$/m, links),
    })
    output = (await exec('node', ['dist/app.js'], { cwd: folder })).stdout
  }, 540_000)

  it('builds and runs the doc’s app.ts in a project made by npm init -y, printing what the doc shows', () => {
    const shown = sectionBlocks('TypeScript').filter((b) => b.lang === 'text').at(-1)!
    expect(output).toBe(shown.text)
    expect(JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', dependencies: { l9kit: expect.stringContaining('.tgz') } })
  })

  it("require('l9kit') fails, as the doc says; await import('l9kit') works from CommonJS", async () => {
    const cjs = exec('node', ['--input-type=commonjs', '-e', "require('l9kit')"], { cwd: folder })
    await expect(cjs).rejects.toMatchObject({ stderr: expect.stringContaining('ERR_PACKAGE_PATH_NOT_EXPORTED') })
    const { stdout } = await exec('node', ['--input-type=commonjs', '-e', "import('l9kit').then((m) => console.log(typeof m.validate))"], { cwd: folder })
    expect(stdout).toBe('function\n')
  })

  it('the report samples the Go, Python and Rust tests round-trip are valid documents', () => {
    expect(validateDocument('error', ERROR_BODY).ok).toBe(true)
    expect(validateDocument('conform-report', CONFORM_REPORT)).toMatchObject({ ok: true })
  })
})
