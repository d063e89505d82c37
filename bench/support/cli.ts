/**
 * The `l9kit` CLI (and the library's validate entry) built with tsup into a temp folder, to be
 * run as whole processes the way the published package runs: plain node, no loader. Packages
 * are bundled in, since the temp folder is outside node_modules' reach.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(fileURLToPath(import.meta.url), '..', '..', '..')

/** Builds into `dir`; returns the paths of the CLI and of the validate entry. */
export async function buildCli(dir: string): Promise<{ cli: string; validate: string }> {
  const { build } = await import('tsup')
  await build({
    entry: {
      'cli/main': join(root, 'src/cli/main.ts'),
      'cli/jobs-worker': join(root, 'src/cli/parallel/worker.ts'),
      'validate/index': join(root, 'src/validate/index.ts'),
    },
    outDir: dir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    config: false,
    silent: true,
    dts: false,
    splitting: true,
    sourcemap: false,
    noExternal: [/./],
  })
  return { cli: join(dir, 'cli', 'main.js'), validate: join(dir, 'validate', 'index.js') }
}

/**
 * The package as `npm run build` makes it (the project's tsup config: its entries, its chunks,
 * libraries left in node_modules), without declarations, into `dir`, which must lie inside the
 * repository so that node finds node_modules as an installed package does. For start-up, where
 * what a command loads (and from where) is what is measured. Returns the path of the CLI as the
 * package's bin runs it.
 */
export async function buildPackage(dir: string, tree = root): Promise<string> {
  const { build } = await import('tsup')
  const config = (await import(pathToFileURL(join(tree, 'tsup.config.ts')).href)).default as Parameters<typeof build>[0]
  const entry = Object.fromEntries(Object.entries(config.entry as Record<string, string>).map(([name, path]) => [name, join(tree, path)]))
  // Its one-file stream commands with their code caches (scripts/build-fast.ts) into `dir` too.
  const { buildFast } = (await import(pathToFileURL(join(tree, 'scripts', 'build-fast.ts')).href).catch(() => ({}))) as { buildFast?: (outDir: string, root: string) => Promise<void> }
  await build({ ...config, entry, outDir: dir, config: false, silent: true, dts: false, clean: true, onSuccess: buildFast && (() => buildFast(dir, tree)) })
  // The package's bin: main.cjs where the tree builds one (scripts/build-fast.ts), else main.js.
  const bin = join(dir, 'cli', 'main.cjs')
  return existsSync(bin) ? bin : join(dir, 'cli', 'main.js')
}

/** Wall time of one process run, in milliseconds (its output is discarded). */
export function timeProcess(args: string[]): number {
  const start = process.hrtime.bigint()
  const result = spawnSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (result.status !== 0 && result.status !== 1) throw new Error(`${args.join(' ')}: exit ${result.status}: ${result.stderr}`)
  return ms
}

/**
 * Runs each command `rounds` times, interleaved (a busy spell of the machine hits all alike),
 * and gives the best time of each: the least disturbed run is the fairest (as bestOf does).
 */
export function bestTimes(commands: string[][], rounds: number): number[] {
  const times = commands.map(() => Infinity)
  for (let r = 0; r < rounds; r++) commands.forEach((args, i) => (times[i] = Math.min(times[i]!, timeProcess(args))))
  return times
}
