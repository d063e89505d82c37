/**
 * Peak memory of `convert` with the default `--jobs` on a gzip-compressed input (issue 33):
 * Shodan banners as `shodan download` writes them, 100 MB and 400 MB before compression
 * (L9KIT_BENCH_MEM_MB: other sizes, comma-separated). Peak RSS is the whole process's, worker
 * threads included (process.resourceUsage().maxRSS, read at its exit). It must not depend on
 * the input's size: target <= 160 MB at 400 MB, and the ratio of the largest input's peak to
 * the smallest's <= 1.2. `--jobs 1` is printed beside it as the single-threaded baseline.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCli } from './support/cli.js'
import { mb, report } from './support/measure.js'

const sizes = (process.env.L9KIT_BENCH_MEM_MB ?? '100,400').split(',').map(Number)
const SHODAN_BENCH = fileURLToPath(new URL('./convert-shodan.bench.ts', import.meta.url))

// Loaded into the measured process with --import: its peak RSS (KiB) on standard error at exit.
const PEAK = `import { isMainThread } from 'node:worker_threads'
if (isMainThread) process.on('exit', () => process.stderr.write('PEAK ' + process.resourceUsage().maxRSS + '\\n'))
`

/** Peak RSS in MB of one `convert` run. */
function peak(cli: string, peakModule: string, file: string, jobs: string[]): number {
  const r = spawnSync(process.execPath, ['--import', peakModule, cli, 'convert', '--from', 'shodan', ...jobs, file], { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 })
  const m = /PEAK (\d+)/.exec(r.stderr.toString())
  if (r.status !== 0 || !m) throw new Error(`convert ${file}: exit ${r.status}: ${r.stderr.toString().slice(-500)}`)
  return Number(m[1]) / 1024
}

const dir = mkdtempSync(join(tmpdir(), 'l9kit-bench-jobs-memory-'))
try {
  const { cli } = await buildCli(join(dir, 'dist'))
  const peakModule = join(dir, 'peak.mjs')
  writeFileSync(peakModule, PEAK)
  const files = sizes.map((size) => {
    const file = join(dir, `shodan-${size}.json.gz`)
    const r = spawnSync(process.execPath, ['--import', 'tsx', SHODAN_BENCH, 'generate', file], { env: { ...process.env, L9KIT_BENCH_MB: String(size) }, stdio: ['ignore', 'pipe', 'inherit'] })
    if (r.status !== 0) throw new Error(`generating ${file} failed`)
    return { size, file }
  })
  console.log(`jobs memory: convert --from shodan, default --jobs (${Math.min(availableParallelism(), 8)} on ${availableParallelism()} cores)`)
  const before = loadavg()[0]!
  const peaks = files.map(({ size, file }) => {
    const one = peak(cli, peakModule, file, ['--jobs', '1'])
    const dflt = peak(cli, peakModule, file, [])
    const label = `${size} MB (${mb(statSync(file).size).toFixed(0)} MB .json.gz)`
    report(`peak RSS --jobs 1, ${label}`, one, 'MB')
    report(`peak RSS default --jobs, ${label}`, dflt, 'MB', size === 400 ? { value: dflt / 160, baseline: '160 MB', target: '<= 1' } : undefined)
    return dflt
  })
  report(`peak RSS default --jobs, ${sizes.at(-1)} MB vs ${sizes[0]} MB`, peaks.at(-1)!, 'MB', { value: peaks.at(-1)! / peaks[0]!, baseline: `${sizes[0]} MB's peak`, target: '<= 1.2' })
  console.log(`load average (1 min) before/after: ${before.toFixed(1)} / ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
