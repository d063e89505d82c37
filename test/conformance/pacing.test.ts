/** The suite never hammers a server: requests are paced, and with `rate: 'auto'` 429s are waited out. */
import { describe, expect, it } from 'vitest'
import { runSuite } from '../../src/conformance/index.js'
import { FAKE_DOMAIN } from './fake/data.js'
import { FAKE_KEY, FAKE_LACKS, startFake } from './fake/server.js'

describe('conformance suite pacing', () => {
  it('spaces its requests at the given rate', async () => {
    const arrivals: number[] = []
    const fake = await startFake({
      intercept: () => {
        arrivals.push(performance.now())
        return false
      },
    })
    try {
      const report = await runSuite({ excludeChecks: FAKE_LACKS, baseUrl: fake.url, apiKey: FAKE_KEY, domains: [FAKE_DOMAIN], rate: 20, seed: 3, maxExamples: 4, checks: ['lookup-shape', 'unknown-resource-empty'] })
      expect(report.summary).toMatchObject({ failed: 0, errors: 0 })
    } finally {
      await fake.close()
    }
    expect(arrivals.length).toBeGreaterThan(5)
    // Starts are ≥ 50 ms apart. Arrival times blur that by connection set-up, which a busy machine
    // stretches: so count instead — no more requests arrived than the rate allows in the span,
    // give or take two. Unpaced, all of them would arrive within a few milliseconds.
    const span = arrivals[arrivals.length - 1]! - arrivals[0]!
    expect(arrivals.length - 1).toBeLessThanOrEqual(Math.floor(span / 50) + 2)
  })

  it("with rate 'auto', waits out the 429s a limited key meets and still judges every check", async () => {
    // The key is limited like anonymous callers (burst 3, then one per 100 ms).
    const fake = await startFake({ plan: (key) => (key === undefined || key === FAKE_KEY ? 'anonymous' : null) })
    try {
      const report = await runSuite({ excludeChecks: FAKE_LACKS, baseUrl: fake.url, apiKey: FAKE_KEY, domains: [FAKE_DOMAIN], rate: 'auto', seed: 3, maxExamples: 5 })
      expect(report.results.filter((r) => r.status === 'failed' || r.status === 'error').map((r) => `${r.id}: ${r.message}`)).toEqual([])
      const limited = report.results.find((r) => r.id === 'rate-limit-header')!
      expect(limited.message).toMatch(/^\d+ 429 answers$/)
      expect(Number(limited.message!.split(' ')[0])).toBeGreaterThan(1)
    } finally {
      await fake.close()
    }
  })
})
