/**
 * The ratios a bench run measured, kept in a file (issue 39): every `report()` with a ratio is
 * one entry, keyed by bench, name and baseline. `npm run bench` writes them to
 * bench/out/results.json (or `--out FILE`); `--compare FILE` prints each against a saved run
 * (the committed bench/baseline.json), marking those more than 10 % worse.
 */
import { appendFileSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'

/** One measured ratio. */
export interface RatioEntry {
  /** The bench file (`jobs.bench.ts`). */
  bench: string
  name: string
  ratio: number
  /** What the ratio is against (`bare parse`, `node -e 0`). */
  baseline: string
  target?: string
  /** A ratio where lower is better (a time or a size against its baseline's) but no target says so. */
  lower?: true
}

/** A saved run: when and where it was measured, and its ratios by key. */
export interface BenchResults {
  date: string
  commit?: string
  /** The 1-minute load average at the start and the end of the run, and the cores. */
  load: { start: number; end: number; cores: number }
  node: string
  ratios: Record<string, RatioEntry>
}

/** The environment variable naming the file where a bench process appends its ratios. */
export const RESULTS_ENV = 'L9KIT_BENCH_RESULTS'

/** A ratio's key: unique per bench, name and baseline (names repeat with different baselines). */
export const ratioKey = (e: Pick<RatioEntry, 'bench' | 'name' | 'baseline'>) => `${e.bench}: ${e.name.trim()} vs ${e.baseline}`

/** Appends one ratio for the run collecting them (no-op when the bench runs alone). */
export function recordRatio(name: string, ratio: number, baseline: string, target?: string, lower?: boolean): void {
  const file = process.env[RESULTS_ENV]
  if (!file) return
  const entry: RatioEntry = { bench: basename(process.argv[1] ?? 'bench'), name: name.trim(), ratio, baseline, ...(target ? { target } : {}), ...(lower ? { lower: true as const } : {}) }
  appendFileSync(file, JSON.stringify(entry) + '\n')
}

/** The ratios appended to `file` by the run's benches, by key (a later one with the same key wins). */
export function readRatios(file: string): Record<string, RatioEntry> {
  const ratios: Record<string, RatioEntry> = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    const entry = JSON.parse(line) as RatioEntry
    ratios[ratioKey(entry)] = entry
  }
  return ratios
}

/**
 * Whether a larger ratio is better: targets written `<`, `<=` or `≤` are ceilings (start-up,
 * memory, latency ratios), as are ratios marked `lower` (those without a target); every other
 * ratio is a share of a baseline's speed.
 */
export const higherIsBetter = (entry: Pick<RatioEntry, 'target' | 'lower'>) => !entry.lower && !/^\s*(<|≤)/.test(entry.target ?? '')

/** How much worse than the baseline's a ratio is before it is marked. */
export const WORSE_THAN = 0.1

export interface Comparison {
  key: string
  now?: RatioEntry
  then?: RatioEntry
  /** now ÷ then, for a ratio measured in both runs. */
  change?: number
  /** More than WORSE_THAN worse, in the direction that counts for it. */
  worse: boolean
}

/** Every ratio of either run, compared where both have it, in the order of the current run. */
export function compareRatios(now: Record<string, RatioEntry>, then: Record<string, RatioEntry>): Comparison[] {
  const keys = [...Object.keys(now), ...Object.keys(then).filter((k) => !(k in now))]
  return keys.map((key) => {
    const a = now[key]
    const b = then[key]
    if (!a || !b || b.ratio === 0) return { key, now: a, then: b, worse: false }
    const change = a.ratio / b.ratio
    const worse = higherIsBetter(a) ? change < 1 - WORSE_THAN : change > 1 + WORSE_THAN
    return { key, now: a, then: b, change, worse }
  })
}

/** The comparison as text lines: one per ratio, `WORSE` where marked, then a count. */
export function formatComparison(rows: readonly Comparison[], thenLabel: string): string[] {
  const lines = [`ratios now vs ${thenLabel} (WORSE: more than ${WORSE_THAN * 100} % worse; higher is better unless the target is a ceiling)`]
  for (const row of rows) {
    const now = row.now ? row.now.ratio.toFixed(2) : '—'
    const then = row.then ? row.then.ratio.toFixed(2) : '—'
    const target = (row.now ?? row.then)?.target
    const change = row.change === undefined ? (row.now ? 'not in baseline' : 'not run') : `${row.change >= 1 ? '+' : ''}${((row.change - 1) * 100).toFixed(0)} %`
    lines.push(`${row.worse ? 'WORSE ' : '      '}${row.key}: ${now} (baseline ${then}; ${change}${target ? `; target ${target}` : ''})`)
  }
  const worse = rows.filter((r) => r.worse).length
  lines.push(`${worse} of ${rows.filter((r) => r.change !== undefined).length} compared ratios more than ${WORSE_THAN * 100} % worse`)
  return lines
}
