/** `npm run bench -- --compare`: which ratios are marked worse than the saved baseline (bench/support/results.ts). */
import { describe, expect, it } from 'vitest'
import { compareRatios, formatComparison, higherIsBetter, type RatioEntry, ratioKey } from '../../bench/support/results.js'

const entry = (name: string, ratio: number, target?: string): RatioEntry => ({ bench: 'x.bench.ts', name, ratio, baseline: 'base', ...(target ? { target } : {}) })
const byKey = (...entries: RatioEntry[]) => Object.fromEntries(entries.map((e) => [ratioKey(e), e]))

describe('bench results comparison', () => {
  it('takes a ceiling target (<, <=, ≤) as lower is better, anything else as higher is better', () => {
    expect(higherIsBetter({ target: '>= 0.85' })).toBe(true)
    expect(higherIsBetter({})).toBe(true)
    expect(higherIsBetter({ target: '<= 1.3' })).toBe(false)
    expect(higherIsBetter({ target: '< 1' })).toBe(false)
    expect(higherIsBetter({ target: '≤ 2.5' })).toBe(false)
  })

  it('takes a ratio marked lower (a time without a target) as lower is better', () => {
    expect(higherIsBetter({ lower: true })).toBe(false)
    const help = (ratio: number): RatioEntry => ({ ...entry('--help', ratio), lower: true })
    // The start-up of `l9kit --help` against node -e 0: faster is not worse, slower is.
    expect(compareRatios(byKey(help(1.29)), byKey(help(1.45)))[0]!.worse).toBe(false)
    expect(compareRatios(byKey(help(1.45)), byKey(help(1.29)))[0]!.worse).toBe(true)
  })

  it('marks a ratio more than 10 % worse in its own direction, and only those', () => {
    const then = byKey(entry('speed', 1.0, '>= 0.8'), entry('speed ok', 1.0), entry('start', 1.2, '<= 1.3'), entry('start ok', 1.2, '<= 1.3'), entry('gone', 1))
    const now = byKey(entry('speed', 0.89, '>= 0.8'), entry('speed ok', 0.91), entry('start', 1.33, '<= 1.3'), entry('start ok', 1.31, '<= 1.3'), entry('new', 2))
    const rows = compareRatios(now, then)
    const worse = rows.filter((r) => r.worse).map((r) => r.now!.name)
    expect(worse).toEqual(['speed', 'start'])
    expect(rows.map((r) => r.key)).toEqual(['x.bench.ts: speed vs base', 'x.bench.ts: speed ok vs base', 'x.bench.ts: start vs base', 'x.bench.ts: start ok vs base', 'x.bench.ts: new vs base', 'x.bench.ts: gone vs base'])
    const text = formatComparison(rows, 'baseline.json')
    expect(text.filter((l) => l.startsWith('WORSE'))).toHaveLength(2)
    expect(text.at(-1)).toBe('2 of 4 compared ratios more than 10 % worse')
    expect(text.find((l) => l.includes('new vs'))).toContain('not in baseline')
    expect(text.find((l) => l.includes('gone vs'))).toContain('not run')
  })
})
