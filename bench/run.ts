/**
 * `npm run bench [-- NAME... [--out FILE] [--compare FILE]]`: runs every bench/*.bench.ts (or
 * those whose file name starts with a NAME) in its own process, one after another, and writes
 * the ratios they measured to bench/out/results.json (or FILE). `--compare FILE` then prints
 * each ratio against that saved run, marking those more than 10 % worse (the committed
 * baseline is bench/baseline.json; `npm run bench -- --out bench/baseline.json` remakes it,
 * see docs/speed.md). Exit status 1 when a bench failed; a worse ratio is reported, not fatal
 * (timings swing on a shared machine).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { type BenchResults, compareRatios, formatComparison, readRatios, RESULTS_ENV } from './support/results.js'

const here = dirname(fileURLToPath(import.meta.url))
const { values, positionals: only } = parseArgs({
  options: { out: { type: 'string' }, compare: { type: 'string' } },
  allowPositionals: true,
})
const out = values.out ?? join(here, 'out', 'results.json')
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort()

mkdirSync(join(here, 'out'), { recursive: true })
const collected = join(here, 'out', `ratios-${process.pid}.jsonl`)
writeFileSync(collected, '')
const loadAtStart = loadavg()[0]!
let failed = 0
for (const file of files) {
  console.log(`\n== ${file}`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit', env: { ...process.env, [RESULTS_ENV]: collected } })
  if (result.status !== 0) {
    failed++
    console.log(`${file} failed (exit ${result.status})`)
  }
}

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: here, encoding: 'utf8' }).stdout.trim()
const results: BenchResults = {
  date: new Date().toISOString(),
  ...(commit ? { commit } : {}),
  load: { start: loadAtStart, end: loadavg()[0]!, cores: availableParallelism() },
  node: process.version,
  ratios: readRatios(collected),
}
rmSync(collected, { force: true })
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, JSON.stringify(results, null, 2) + '\n')
console.log(`\n${Object.keys(results.ratios).length} ratios written to ${out} (load ${results.load.start.toFixed(1)} → ${results.load.end.toFixed(1)} on ${results.load.cores} cores)`)

if (values.compare) {
  const then = JSON.parse(readFileSync(values.compare, 'utf8')) as BenchResults
  const label = `${values.compare} (${then.commit ?? 'unknown commit'}, ${then.date.slice(0, 10)}, load ${then.load.start.toFixed(1)})`
  console.log(`\n${formatComparison(compareRatios(results.ratios, then.ratios), label).join('\n')}`)
}
process.exitCode = failed ? 1 : 0
