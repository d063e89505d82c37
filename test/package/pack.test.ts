/**
 * The package as a consumer gets it: `npm pack`, install the tarball into a temp folder without
 * the network (runtime dependencies are copied from this checkout, so npm finds them installed),
 * import every subpath from ESM, type-check a consumer against the shipped declarations, run the
 * `l9kit` bin, and check the tarball holds nothing of the tests. Needs `dist/` (npx tsup).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consumerProject } from '../support/consumer.js'

const run = promisify(execFile)
const root = new URL('../..', import.meta.url).pathname
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string
  version: string
  exports: Record<string, string | { types: string; import: string }>
  dependencies: Record<string, string>
}
/** The code entries of the exports map ('.', './schema', …): those with an `import` target. */
const SUBPATHS = Object.keys(pkg.exports).filter((key) => typeof pkg.exports[key] === 'object' && 'import' in (pkg.exports[key] as object))

let dir = ''
let files: string[] = []
const npm = (args: string[], cwd: string) => run('npm', args, { cwd, timeout: 240_000, maxBuffer: 16 << 20 })

beforeAll(async () => {
  for (const key of SUBPATHS) {
    const target = (pkg.exports[key] as { import: string }).import
    if (!existsSync(join(root, target))) throw new Error(`${target} is missing: build first (npx tsup)`)
  }
  dir = mkdtempSync(join(tmpdir(), 'l9kit-pack-'))
  // --ignore-scripts: its `prepare` (the build) would empty dist/ while other tests use it; the test needs dist/ built.
  const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root)
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }]
  files = packed.files.map((f) => f.path)
  const consumer = join(dir, 'consumer')
  consumerProject(consumer)
  await npm(['install', '--offline', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, packed.filename)], consumer)
}, 270_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('npm pack', () => {
  it('ships the build, the schema documents and their types, and the bundled corpus', () => {
    for (const key of SUBPATHS) {
      const entry = pkg.exports[key] as { types: string; import: string }
      expect(files).toContain(entry.import.slice(2))
      expect(files).toContain(entry.types.slice(2))
    }
    for (const file of ['schema/event.schema.json', 'schema/openapi.json', 'schema/VERSION', 'schema/types/event.d.ts', 'schema/types/lookup-result.d.ts', 'schema/types/go/l9types.go', 'schema/types/python/l9kit_types.py', 'schema/types/rust/lib.rs', 'CHANGELOG.md', 'dist/cli/main.js']) {
      expect(files).toContain(file)
    }
    // Read at run time: corpus/valid by `l9kit serve` (src/service/corpus.ts), the PostgreSQL
    // migrations by the postgres store and `l9kit db` (src/service/store/postgres/migrations.ts).
    expect(files.filter((f) => f.startsWith('corpus/valid/')).length).toBeGreaterThan(10)
    const migrations = join(root, 'migrations', 'postgres')
    if (existsSync(migrations)) for (const sql of readdirSync(migrations)) expect(files).toContain(`migrations/postgres/${sql}`)
  })

  it('holds no tests, fixtures, sources or release copies', () => {
    const unwanted = files.filter((f) =>
      /^(test|src|bench|scripts|docs|\.ci)\/|^corpus\/(invalid|tools)\/|\.test\.|\.typetest\.|^schema\/released\/|tsconfig|vitest|tsup/.test(f),
    )
    expect(unwanted).toEqual([])
  })
})

describe('the installed package', () => {
  const consumer = () => join(dir, 'consumer')

  it('imports every subpath from ESM, and the JSON Schema files by name', async () => {
    const script = [
      `const subpaths = ${JSON.stringify(SUBPATHS.map((k) => k.replace(/^\./, pkg.name)))}`,
      'const out = {}',
      'for (const name of subpaths) out[name] = Object.keys(await import(name)).length',
      "const schema = (await import('l9kit/schema/event.schema.json', { with: { type: 'json' } })).default",
      "const api = (await import('l9kit/schema/openapi.json', { with: { type: 'json' } })).default",
      "out.id = schema.$id; out.openapi = api.openapi",
      'console.log(JSON.stringify(out))',
    ].join('\n')
    writeFileSync(join(consumer(), 'imports.mjs'), script)
    const { stdout } = await run(process.execPath, ['imports.mjs'], { cwd: consumer(), timeout: 120_000 })
    const out = JSON.parse(stdout) as Record<string, unknown>
    for (const key of SUBPATHS) expect(out[key.replace(/^\./, pkg.name)], key).toBeGreaterThan(0)
    expect(out.id).toMatch(/^https:\/\/l9kit\.dev\/schema\/\d+\.\d+\.\d+\/event\.schema\.json$/)
    expect(out.openapi).toBe('3.1.0')
  })

  it('type-checks a consumer against the shipped declarations (one Event type for the lookup result)', async () => {
    writeFileSync(
      join(consumer(), 'use.ts'),
      [
        "import type { Event } from 'l9kit/schema/types/event'",
        "import type { LookupResult } from 'l9kit/schema/types/lookup-result'",
        "import { schemaDocument, type Event as ModelEvent } from 'l9kit/schema'",
        "import { LookupClient } from 'l9kit/client'",
        "import { runSuite } from 'l9kit/conformance'",
        "import { startService } from 'l9kit/service'",
        'const result: LookupResult = { Services: [], Leaks: null }',
        'const first: Event | undefined = result.Services?.[0]',
        'const model: ModelEvent | undefined = first',
        // skipLibCheck keeps this fast; these prove the shipped types resolved to something real.
        'type IsAny<T> = 0 extends 1 & T ? true : false',
        'const real = <T extends false>(value: T) => value',
        'real<IsAny<Event>>(false)',
        'real<IsAny<LookupResult>>(false)',
        'real<IsAny<ModelEvent>>(false)',
        'real<IsAny<typeof startService>>(false)',
        'real<IsAny<Parameters<typeof LookupClient.prototype.lookupHost>>>(false)',
        'export const used = [schemaDocument, LookupClient, runSuite, startService, model]',
      ].join('\n'),
    )
    writeFileSync(
      join(consumer(), 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(root, 'node_modules/@types')] },
        files: ['use.ts'],
      }),
    )
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc')
    const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: consumer(), timeout: 240_000 }).catch((e: { stdout: string }) => e)
    expect(result.stdout).toBe('')
  }, 180_000)

  it('runs the l9kit bin', async () => {
    const bin = join(consumer(), 'node_modules', '.bin', 'l9kit')
    const help = await run(bin, ['--help'], { cwd: consumer(), timeout: 120_000 })
    expect(help.stdout).toMatch(/^Usage: l9kit <command>/m)
    const sample = join(consumer(), 'node_modules', 'l9kit', 'corpus', 'valid', 'service-ssh-openssh.json')
    const checked = await run(bin, ['validate', sample], { cwd: consumer(), timeout: 120_000 })
    expect(checked.stdout).toMatch(/1 valid, 0 invalid/)
  })
})
