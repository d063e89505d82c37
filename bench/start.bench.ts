/**
 * Start-up (issue 11), whole processes against `node -e 0` measured in the same run:
 * - `l9kit validate one.json` (target ≤ 1.3× `node -e 0`, issue 39), and the other stream commands;
 * - `import('l9kit/validate')` plus the first `validate()`, timed inside a process
 *   (target ≤ 60 ms).
 * The CLI is built as the package is (the project's tsup config, libraries left in
 * node_modules) into bench/out/start/ (bench/support/cli.ts): what a command loads, and from
 * where, is what start-up measures. The library's validate entry is built with the libraries
 * bundled in, into a temp folder. Rounds: L9KIT_BENCH_ROUNDS (default 15), interleaved, best
 * of each.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchLines } from './support/events.js'
import { bestTimes, buildCli, buildPackage } from './support/cli.js'
import { report } from './support/measure.js'

const rounds = Number(process.env.L9KIT_BENCH_ROUNDS ?? 15)

const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-start-'))
try {
  const { validate } = await buildCli(join(dir, 'dist'))
  const cli = await buildPackage(join(import.meta.dirname, 'out', 'start'))
  const one = join(dir, 'one.json')
  writeFileSync(one, benchLines(1)[0]!)
  const httpx = join(dir, 'one.httpx.jsonl')
  writeFileSync(httpx, '{"timestamp":"2024-09-23T12:03:07+02:00","port":"443","url":"https://a.example.com","host":"a.example.com","host_ip":"192.0.2.1","scheme":"https","status_code":200}\n')
  const commands: [string, string[]][] = [
    ['node -e 0', ['-e', '0']],
    ['l9kit validate one.json', [cli, 'validate', one]],
    ['l9kit normalize one.json', [cli, 'normalize', one]],
    ['l9kit fingerprint one.json', [cli, 'fingerprint', one]],
    ['l9kit convert --from httpx (one record)', [cli, 'convert', '--from', 'httpx', httpx]],
    ['l9kit --help', [cli, '--help']],
  ]
  const times = bestTimes(commands.map(([, args]) => args), rounds)
  console.log(`start: best of ${rounds} interleaved runs each`)
  report('node -e 0', times[0]!, 'ms')
  commands.slice(1).forEach(([name], i) => {
    const ms = times[i + 1]!
    // Only validate has a target; every start-up ratio is a time, where lower is better.
    report(name, ms, 'ms', { value: ms / times[0]!, baseline: 'node -e 0', ...(i === 0 ? { target: '<= 1.3' } : { lower: true }) })
  })

  // import('l9kit/validate') + first validate(), timed inside the process (module loading included).
  const probe = `const doc = JSON.parse(${JSON.stringify(benchLines(2)[1])});
const t = performance.now();
const { validate } = await import(${JSON.stringify(pathToFileURL(validate).href)});
const ok = validate(doc).ok;
console.log(JSON.stringify({ ms: performance.now() - t, ok }));`
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' })
    const result = JSON.parse(child.stdout) as { ms: number; ok: boolean }
    if (!result.ok) throw new Error('the probe document did not validate')
    best = Math.min(best, result.ms)
  }
  report("import('l9kit/validate') + first validate()", best, 'ms', { value: best / 60, baseline: 'budget 60 ms', target: '<= 1' })
} finally {
  rmSync(dir, { recursive: true, force: true })
}
