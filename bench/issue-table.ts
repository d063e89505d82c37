/**
 * Issue 39's table, an old commit and this tree side by side in one run:
 *
 *   npx tsx bench/issue-table.ts [--old cb05b2d] [--mb 142] [--rounds 3] [--start-rounds 30]
 *
 * The old commit is taken with `git archive` into bench/out/issue-table/old (its own tsup
 * config builds it, with this checkout's node_modules); this tree is built the same way into
 * bench/out/issue-table/new. Both run as whole processes with plain node, rounds interleaved
 * (a busy spell of the machine hits every command alike), best of each. Ratios are against
 * baselines measured in the same run: `node -e 0` for start-up, a bare chunked JSON.parse of
 * the same file for throughput, a bare two-thread parse for the ceiling of two threads
 * (bench/support/bare-parse.ts). The table is printed as Markdown and written to
 * bench/out/issue-table.json, with the load average before and after: on a machine with other
 * work the parallel ratios mean little. The service rows of the issue (lookups, p99 during
 * ingest, bulk export, PostgreSQL address search) are measured by `npm run bench -- service
 * postgres bulk`, not here.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { BARE_PARSE, BARE_PARSE_2 } from './support/bare-parse.js'
import { bestTimes, buildPackage } from './support/cli.js'
import { benchEvent, benchLines } from './support/events.js'
import { toolLine, writeLines } from './support/files.js'

const { values } = parseArgs({
  options: {
    old: { type: 'string', default: 'cb05b2d' },
    mb: { type: 'string', default: '142' },
    rounds: { type: 'string', default: '3' },
    'start-rounds': { type: 'string', default: '30' },
  },
})
const root = join(import.meta.dirname, '..')
const work = join(import.meta.dirname, 'out', 'issue-table')
const megabytes = Number(values.mb)
const rounds = Number(values.rounds)
const startRounds = Number(values['start-rounds'])

const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' })

/** The old commit's tree, built: the path of its CLI. */
async function buildOld(commit: string): Promise<string> {
  const tree = join(work, 'old')
  rmSync(tree, { recursive: true, force: true })
  mkdirSync(tree, { recursive: true })
  const archive = spawnSync('sh', ['-c', `git archive ${commit} | tar -x -C '${tree}'`], { cwd: root, encoding: 'utf8' })
  if (archive.status !== 0) throw new Error(`git archive ${commit}: ${archive.stderr}`)
  symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'))
  return buildPackage(join(tree, 'dist'), tree)
}

const loadStart = loadavg()[0]!
const oldCommit = git('rev-parse', '--short', values.old!).stdout.trim()
const newCommit = `${git('rev-parse', '--short', 'HEAD').stdout.trim()}${git('status', '--porcelain', '--', 'src').stdout.trim() ? '+changes' : ''}`
mkdirSync(work, { recursive: true })
console.log(`building ${oldCommit} and this tree (${newCommit}) …`)
const oldCli = await buildOld(values.old!)
const newCli = await buildPackage(join(work, 'new'))

// Inputs: one event; canonical events (what validate reads); what tools write (what normalize rewrites).
const one = join(work, 'one.json')
writeFileSync(one, `${benchLines(1)[0]}\n`)
const canonical = join(work, 'canonical.jsonl')
const tools = join(work, 'tools.jsonl')
if (!existsSync(canonical) || Math.abs(statSync(canonical).size / 2 ** 20 - megabytes) > 1) writeLines(canonical, megabytes, (i) => JSON.stringify(benchEvent(i)))
if (!existsSync(tools) || Math.abs(statSync(tools).size / 2 ** 20 - megabytes) > 1) writeLines(tools, megabytes, toolLine)
const parse1 = join(work, 'parse.mjs')
const parse2 = join(work, 'parse2.mjs')
writeFileSync(parse1, BARE_PARSE)
writeFileSync(parse2, BARE_PARSE_2)

/** Best times of named runs, interleaved. */
function measure(runs: Record<string, string[]>, n: number): Record<string, number> {
  const names = Object.keys(runs)
  const ms = bestTimes(names.map((name) => runs[name]!), n)
  return Object.fromEntries(names.map((name, i) => [name, ms[i]!]))
}

console.log(`start-up: ${startRounds} rounds …`)
const start = measure({ node: ['-e', '0'], old: [oldCli, 'validate', one], new: [newCli, 'validate', one] }, startRounds)
console.log(`throughput: ${(statSync(canonical).size / 2 ** 20).toFixed(0)} MB canonical, ${(statSync(tools).size / 2 ** 20).toFixed(0)} MB tool output, ${rounds} rounds …`)
const runs: Record<string, string[]> = {
  parse: [parse1, canonical],
  parse2: [parse2, canonical],
  'old validate': [oldCli, 'validate', '--profile', 'strict', canonical],
  'new validate': [newCli, 'validate', '--profile', 'strict', canonical],
  'old validate 1': [oldCli, 'validate', '--jobs', '1', canonical],
  'new validate 1': [newCli, 'validate', '--jobs', '1', canonical],
  'old validate 2': [oldCli, 'validate', '--jobs', '2', canonical],
  'new validate 2': [newCli, 'validate', '--jobs', '2', canonical],
  'parse tools': [parse1, tools],
  'parse2 tools': [parse2, tools],
  'old normalize': [oldCli, 'normalize', '--no-warnings', tools],
  'new normalize': [newCli, 'normalize', '--no-warnings', tools],
  'old normalize 1': [oldCli, 'normalize', '--no-warnings', '--jobs', '1', tools],
  'new normalize 1': [newCli, 'normalize', '--no-warnings', '--jobs', '1', tools],
  'new filter': [newCli, 'filter', 'port:443', canonical],
}
const t = measure(runs, rounds)
const loadEnd = loadavg()[0]!

const r = (x: number) => x.toFixed(2)
const ceiling = t.parse! / t.parse2!
const ceilingTools = t['parse tools']! / t['parse2 tools']!
const rows: [string, string, string, string][] = [
  ['`validate one.json` / `node -e 0`', `${r(start.old! / start.node!)} (${start.old!.toFixed(0)} ms)`, `${r(start.new! / start.node!)} (${start.new!.toFixed(0)} ms vs ${start.node!.toFixed(0)} ms)`, '≤ 1.3'],
  [`\`validate --profile strict\` ${megabytes} MB (default --jobs) / bare chunked JSON.parse`, r(t.parse! / t['old validate']!), r(t.parse! / t['new validate']!), '≥ 0.95'],
  ['the same, `--jobs 1`', r(t.parse! / t['old validate 1']!), r(t.parse! / t['new validate 1']!), ''],
  ['`normalize` (default --jobs) / bare parse, tool output', r(t['parse tools']! / t['old normalize']!), r(t['parse tools']! / t['new normalize']!), '≥ 0.75'],
  ['the same, `--jobs 1`', r(t['parse tools']! / t['old normalize 1']!), r(t['parse tools']! / t['new normalize 1']!), ''],
  [
    `\`validate --jobs 2\` / \`--jobs 1\` (2-thread parse ceiling ${r(ceiling)})`,
    `${r(t['old validate 1']! / t['old validate 2']!)} (${r(t.parse2! / t['old validate 2']!)} of the ceiling)`,
    `${r(t['new validate 1']! / t['new validate 2']!)} (${r(t.parse2! / t['new validate 2']!)} of the ceiling)`,
    '> 1; ≥ 0.85 of the ceiling',
  ],
  [
    `\`normalize\` (default --jobs) / \`--jobs 1\` (2-thread parse ceiling ${r(ceilingTools)})`,
    `${r(t['old normalize 1']! / t['old normalize']!)} (${r(t['parse2 tools']! / t['old normalize']!)} of the ceiling)`,
    `${r(t['new normalize 1']! / t['new normalize']!)} (${r(t['parse2 tools']! / t['new normalize']!)} of the ceiling)`,
    '',
  ],
  ['`filter port:443` / `validate` (default --jobs)', 'no filter', r(t['new validate']! / t['new filter']!), '≥ 0.8'],
]
const header = `${values.old} (${oldCommit}) and this tree (${newCommit}), ${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ${availableParallelism()} cores, load ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}; start-up best of ${startRounds}, throughput best of ${rounds}`
const table = ['| measure | old | new | target |', '|---|---|---|---|', ...rows.map((row) => `| ${row.join(' | ')} |`)]
console.log(`\n${header}\n\n${table.join('\n')}\n`)
console.log(`best times (ms): ${Object.entries({ ...start, ...t }).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`)
writeFileSync(join(import.meta.dirname, 'out', 'issue-table.json'), JSON.stringify({ header, rows, start, times: t }, null, 2) + '\n')
