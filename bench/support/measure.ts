/** Timing and memory helpers shared by the benchmarks. Ratios, not absolute numbers, are the result. */
import { recordRatio } from './results.js'

/** Best-of-N wall time of `fn` in milliseconds (the least disturbed run is the fairest). */
export function bestOf(rounds: number, fn: () => void): number {
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    fn()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6)
  }
  return best
}

export async function bestOfAsync(rounds: number, fn: () => Promise<void>): Promise<number> {
  let best = Infinity
  for (let r = 0; r < rounds; r++) {
    const start = process.hrtime.bigint()
    await fn()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6)
  }
  return best
}

/** Peak resident set size of this process so far, in MB. */
export const peakRssMb = () => process.resourceUsage().maxRSS / 1024

export const mb = (bytes: number) => bytes / (1024 * 1024)

/** One result line: `name: value unit (ratio X vs baseline)`; a ratio is also kept for `npm run bench`'s results file. */
export function report(name: string, value: number, unit: string, ratio?: { value: number; baseline: string; target?: string; lower?: boolean }) {
  if (ratio) recordRatio(name, ratio.value, ratio.baseline, ratio.target, ratio.lower)
  const tail = ratio ? ` (ratio ${ratio.value.toFixed(2)} vs ${ratio.baseline}${ratio.target ? `; target ${ratio.target}` : ''})` : ''
  console.log(`${name}: ${value.toFixed(value >= 100 ? 0 : 2)} ${unit}${tail}`)
}

/**
 * CPU seconds (user + system) of this process since `from` (a process.cpuUsage() reading).
 * On a machine shared with other work, CPU-time ratios stay put where wall-time ones swing.
 */
export function cpuSecondsSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from)
  return (user + system) / 1e6
}
