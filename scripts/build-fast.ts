/**
 * The stream commands' one-file CommonJS builds with their V8 code caches (src/cli/fast/,
 * chosen by src/cli/main.ts; docs/speed.md, "Start-up"): `<out>/fast/<command>.cjs`, each
 * document's validator in `<out>/fast/validators/<name>.cjs`, then `<out>/fast/code-cache.cjs`
 * run to write each file's `.v8cache`; and the package's CommonJS bin, `<out>/cli/main.cjs`. Run by tsup.config.ts once the ES modules are built
 * (in order, so the two builds never share a folder while it is being cleaned).
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Options } from 'tsup'
import { FAST_COMMANDS } from '../src/cli/fast/commands.js'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

/** The compiled validators under `compiled` (src/validate/compiled, one module per document): each its own file here. */
const validators = (compiled: string) =>
  readdirSync(compiled).filter((f) => f.endsWith('.js') && !['index.js', 'load.js', 'members.js'].includes(f) && !f.startsWith('shared.'))
  .map((f) => f.slice(0, -'.js'.length))

/**
 * A document's validator is loaded from its own file (validators/<name>.cjs) when it is asked
 * for, as the chunks do: bundled in, every document's code would be read at every start.
 */
const validatorsApart: Plugin = {
  name: 'validators-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w.+-]+\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]validate[\\/]compiled[\\/]load\.js$/.test(args.importer)
        ? { path: args.path.slice(2, -'.js'.length), namespace: 'validator-apart' }
        : undefined,
    )
    // What load.js reads of the module: its default export, the validator.
    build.onLoad({ filter: /.*/, namespace: 'validator-apart' }, (args) => ({
      contents: `export default require('./validators/${args.path}.cjs').default`,
      loader: 'js',
    }))
    build.onResolve({ filter: /^\.\/validators\// }, (args) => ({ path: args.path, external: true }))
  },
}

/** Each command runs its own job only (src/cli/commands/*.ts): the other jobs stay out of its file. */
const onlyJob = (name: string): Plugin => ({
  name: 'only-job',
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /[\\/]cli[\\/]parallel[\\/]jobs[\\/]index\.ts$/.test(args.importer) && args.path !== `./${name}.js`
        ? { path: args.path, namespace: 'job-elsewhere' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'job-elsewhere' }, (args) => ({
      contents: `export function create() { throw new Error('job ${args.path} is not in the one-file build of ${name}') }`,
      loader: 'js',
    }))
  },
})

/** Builds `<outDir>/fast/` from the tree at `root` (as tsup, by default the working folder) and writes its code caches. */
export async function buildFast(outDir: string, root = process.cwd()): Promise<void> {
  const compiled = join(root, 'src', 'validate', 'compiled')
  const { build } = await import('tsup')
  const fast = join(outDir, 'fast')
  rmSync(fast, { recursive: true, force: true })
  const common: Options = {
    outDir: fast,
    format: ['cjs'],
    target: 'node20',
    platform: 'node',
    config: false,
    silent: true,
    dts: false,
    splitting: false,
    sourcemap: false,
    clean: false,
    // import() becomes require(): one loader, the CommonJS one, for the whole command.
    esbuildOptions(options) {
      options.supported = { ...options.supported, 'dynamic-import': false }
    },
    // The code is written for chunks in dist/ (parallel/run.ts finds ./cli/jobs-worker.js from
    // there): its import.meta.url is a file of dist/ here too.
    define: { 'import.meta.url': '__l9kitDistUrl' },
    banner: { js: "var __l9kitDistUrl = require('node:url').pathToFileURL(require('node:path').join(__dirname, '..', 'fast.cjs')).href;" },
  }
  for (const name of FAST_COMMANDS) {
    await build({ ...common, entry: { [name]: join(root, 'src', 'cli', 'fast', `${name}.ts`) }, esbuildPlugins: [validatorsApart, onlyJob(name)] })
  }
  // The package's bin, <out>/cli/main.cjs (src/cli/fast/bin.ts): its import() of the ES
  // modules' entry stays an import().
  await build({ ...common, outDir: join(outDir, 'cli'), entry: { main: join(root, 'src', 'cli', 'fast', 'bin.ts') }, esbuildOptions: undefined })
  await build({
    ...common,
    entry: {
      ...Object.fromEntries(validators(compiled).map((name) => [`validators/${name}`, join(compiled, `${name}.js`)])),
      'code-cache': join(root, 'src', 'cli', 'fast', 'code-cache.ts'),
    },
  })
  const made = spawnSync(process.execPath, [join(fast, 'code-cache.cjs'), '--corpus', join(root, 'corpus')], { stdio: 'inherit' })
  if (made.status !== 0) throw new Error(`${join(fast, 'code-cache.cjs')}: exit ${made.status}`)
}
