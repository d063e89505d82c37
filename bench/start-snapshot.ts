/**
 * What a V8 start-up snapshot would give `l9kit validate one.json` (issue 39: "if reaching 1.3
 * needs … a V8 startup snapshot …, measure and say"). `npx tsx bench/start-snapshot.ts
 * [--rounds 30]` bundles the validate path into one CommonJS file (bench/support/snapshot-entry.ts;
 * `validate` the only command, the event validator the only document, no `--jobs` workers: one
 * small input needs neither), builds a snapshot of it with `node --build-snapshot`, and times,
 * interleaved and best of the rounds: `node -e 0`, the snapshot (`node --snapshot-blob … validate
 * one.json`) and the package's CLI as `npm run build` makes it. The snapshot is tied to the node
 * binary that made it and is started with a node option, which the `l9kit` binary cannot give
 * itself: docs/speed.md says what shipping it would take.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Options } from 'tsup'
import { benchLines } from './support/events.js'
import { bestTimes, buildPackage } from './support/cli.js'

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '30' } } })
const rounds = Number(values.rounds)
const out = join(import.meta.dirname, 'out', 'start-snapshot')
mkdirSync(out, { recursive: true })
const src = join(import.meta.dirname, '..', 'src')

/** validate as the only command, the event as the only document, no jobs: what one small input uses. */
const validateOnly: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'validate-only',
  setup(build) {
    const stub = (filter: RegExp, name: string, resolveDir: string, contents: string) => {
      build.onResolve({ filter }, () => ({ path: name, namespace: 'stub' }))
      build.onLoad({ filter: new RegExp(`^${name}$`), namespace: 'stub' }, () => ({ resolveDir, loader: 'ts', contents }))
    }
    stub(/commands[\\/]index\.js$/, 'commands', join(src, 'cli', 'commands'), "import { validate } from './validate.js'\nexport const commands = [{ name: 'validate', summary: '', load: async () => validate }]")
    stub(/compiled[\\/]load\.js$/, 'load', join(src, 'validate', 'compiled'), "import event from './event.js'\nexport const DOCUMENTS = ['event']\nexport const loadValidator = async () => event")
    stub(/jobs[\\/]index\.js$/, 'jobs', src, "export const blockRunner = () => { throw new Error('no jobs in this build') }\nexport const loadJob = blockRunner")
  },
}

const { build } = await import('tsup')
await build({
  entry: { entry: join(import.meta.dirname, 'support', 'snapshot-entry.ts') },
  outDir: out,
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  config: false,
  silent: true,
  dts: false,
  splitting: false,
  sourcemap: false,
  noExternal: [/./],
  esbuildPlugins: [validateOnly],
  // As if it were one of dist/'s chunks (run.ts looks for ./cli/jobs-worker.js from there).
  define: { 'import.meta.url': JSON.stringify(new URL('../../../dist/chunk.js', import.meta.url).href) },
})
const blob = join(out, 'validate.blob')
const made = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', join(out, 'entry.cjs')], { encoding: 'utf8' })
if (made.status !== 0) throw new Error(`node --build-snapshot: ${made.stderr}`)
const cli = await buildPackage(join(import.meta.dirname, 'out', 'start'))

const one = join(out, 'one.json')
writeFileSync(one, `${benchLines(1)[0]}\n`)
const same = [['--snapshot-blob', blob, 'validate', one], [cli, 'validate', one]].map((args) => spawnSync(process.execPath, args, { encoding: 'utf8' }))
if (same[0]!.stdout !== same[1]!.stdout || same[0]!.status !== same[1]!.status) throw new Error(`the snapshot and the CLI disagree: ${JSON.stringify(same.map((r) => r.stdout + r.stderr))}`)

const [node, snapshot, package_] = bestTimes([['-e', '0'], ['--snapshot-blob', blob, 'validate', one], [cli, 'validate', one]], rounds)
console.log(`start: best of ${rounds} interleaved runs each; the bundle ${(statSync(join(out, 'entry.cjs')).size / 1024).toFixed(0)} KB, the snapshot ${(statSync(blob).size / 2 ** 20).toFixed(1)} MB`)
console.log(`  node -e 0                          ${node!.toFixed(1)} ms`)
console.log(`  validate one.json, from a snapshot ${snapshot!.toFixed(1)} ms  ${(snapshot! / node!).toFixed(2)}× node -e 0`)
console.log(`  validate one.json, the package     ${package_!.toFixed(1)} ms  ${(package_! / node!).toFixed(2)}× node -e 0`)
