/**
 * Whole-process throughput on a large JSON Lines file (issues 11 and 39), every ratio against a
 * baseline measured in the same run:
 * - `validate` and `normalize` with `--jobs 1` against a bare parse process (the same file
 *   read in 1 MiB chunks, split into lines, each line JSON.parse'd; targets ≥ 0.80 and ≥ 0.50);
 * - `--jobs 2` against `--jobs 1` (issue 39: faster) and against the bare parse (target > 1.3);
 * - `--jobs 2` as a share of the machine's ceiling for that work: a bare two-thread parse (the
 *   main thread reads blocks of whole lines and parses them, one worker thread started with
 *   the process parses the blocks it is handed; no validation, no output). Target ≥ 0.85;
 * - with the default `--jobs` (what a user runs, issue 39): validate against the bare parse
 *   (≥ 0.95), normalize against it (≥ 0.75), and `filter` against validate (≥ 0.8).
 * validate reads canonical events; normalize reads what tools emit (numbers as such, nulls),
 * so that it really rewrites. The CLI is built into a temp folder (bench/support/cli.ts).
 * Size: L9KIT_BENCH_MB (default 100); rounds: L9KIT_BENCH_ROUNDS (default 3), interleaved,
 * best of each. Parallel ratios need idle cores: the load average is printed beside them.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchEvent } from './support/events.js'
import { toolLine, writeLines } from './support/files.js'
import { bestTimes, buildCli } from './support/cli.js'
import { mb, report } from './support/measure.js'
import { BARE_PARSE, BARE_PARSE_2 } from './support/bare-parse.js'

const targetMb = Number(process.env.L9KIT_BENCH_MB ?? 100)
const rounds = Number(process.env.L9KIT_BENCH_ROUNDS ?? 3)

const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-jobs-'))
try {
  const { cli } = await buildCli(join(dir, 'dist'))
  const canonical = join(dir, 'canonical.jsonl')
  const tools = join(dir, 'tools.jsonl')
  writeLines(canonical, targetMb, (i) => JSON.stringify(benchEvent(i)))
  writeLines(tools, targetMb, toolLine)
  const parser = join(dir, 'parse.mjs')
  writeFileSync(parser, BARE_PARSE)
  const parser2 = join(dir, 'parse2.mjs')
  writeFileSync(parser2, BARE_PARSE_2)
  console.log(`jobs: ${mb(statSync(canonical).size).toFixed(0)} MB canonical, ${mb(statSync(tools).size).toFixed(0)} MB tool output; ${availableParallelism()} cores; best of ${rounds}`)
  const runs: [string, string[]][] = [
    ['bare parse (canonical)', [parser, canonical]],
    ['validate --jobs 1', [cli, 'validate', '--jobs', '1', canonical]],
    ['validate --jobs 2', [cli, 'validate', '--jobs', '2', canonical]],
    ['bare parse (tool output)', [parser, tools]],
    ['normalize --jobs 1', [cli, 'normalize', '--no-warnings', '--jobs', '1', tools]],
    ['normalize --jobs 2', [cli, 'normalize', '--no-warnings', '--jobs', '2', tools]],
    ['bare two-thread parse (canonical)', [parser2, canonical]],
    ['bare two-thread parse (tool output)', [parser2, tools]],
    ['validate (default --jobs)', [cli, 'validate', canonical]],
    ['normalize (default --jobs)', [cli, 'normalize', '--no-warnings', tools]],
    ['filter port:443 (default --jobs)', [cli, 'filter', 'port:443', canonical]],
  ]
  const before = loadavg()[0]!
  const ms = bestTimes(runs.map(([, args]) => args), rounds)
  const after = loadavg()[0]!
  const size = [canonical, canonical, canonical, tools, tools, tools, canonical, tools, canonical, tools, canonical].map((f) => mb(statSync(f).size))
  const rate = (i: number) => size[i]! / (ms[i]! / 1000)
  report(runs[0]![0], rate(0), 'MB/s')
  report(runs[6]![0], rate(6), 'MB/s', { value: ms[0]! / ms[6]!, baseline: 'bare parse' })
  report(runs[1]![0], rate(1), 'MB/s', { value: ms[0]! / ms[1]!, baseline: 'bare parse', target: '>= 0.80' })
  report(runs[2]![0], rate(2), 'MB/s', { value: ms[1]! / ms[2]!, baseline: 'validate --jobs 1', target: '> 1' })
  report(`${runs[2]![0]} `, rate(2), 'MB/s', { value: ms[0]! / ms[2]!, baseline: 'bare parse', target: '> 1.3' })
  report(`${runs[2]![0]}  `, rate(2), 'MB/s', { value: ms[6]! / ms[2]!, baseline: 'bare two-thread parse', target: '>= 0.85' })
  report(runs[3]![0], rate(3), 'MB/s')
  report(runs[7]![0], rate(7), 'MB/s', { value: ms[3]! / ms[7]!, baseline: 'bare parse' })
  report(runs[4]![0], rate(4), 'MB/s', { value: ms[3]! / ms[4]!, baseline: 'bare parse', target: '>= 0.50' })
  report(runs[5]![0], rate(5), 'MB/s', { value: ms[4]! / ms[5]!, baseline: 'normalize --jobs 1', target: '> 1' })
  report(`${runs[5]![0]} `, rate(5), 'MB/s', { value: ms[3]! / ms[5]!, baseline: 'bare parse', target: '> 1.3' })
  report(`${runs[5]![0]}  `, rate(5), 'MB/s', { value: ms[7]! / ms[5]!, baseline: 'bare two-thread parse', target: '>= 0.85' })
  report(runs[8]![0], rate(8), 'MB/s', { value: ms[0]! / ms[8]!, baseline: 'bare parse', target: '>= 0.95' })
  report(runs[9]![0], rate(9), 'MB/s', { value: ms[3]! / ms[9]!, baseline: 'bare parse', target: '>= 0.75' })
  report(runs[10]![0], rate(10), 'MB/s', { value: ms[8]! / ms[10]!, baseline: 'validate (default --jobs)', target: '>= 0.8' })
  console.log(`load average (1 min) before/after: ${before.toFixed(1)} / ${after.toFixed(1)} on ${availableParallelism()} cores`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
