/** The pacer's schedule, on a fake clock. */
import { describe, expect, it } from 'vitest'
import { Pacer } from '../../src/client/index.js'

describe('Pacer', () => {
  it('spaces starts 1/rate apart and lets a 429 hold everyone', async () => {
    let now = 1000
    const pacer = new Pacer(1000, () => now) // 1 ms apart: the real sleeps stay tiny
    await pacer.acquire()
    const internal = pacer as unknown as { next: number }
    expect(internal.next).toBe(1001)
    now = 1000.5
    pacer.holdFor(20)
    expect(internal.next).toBe(1020.5)
    now = 5000
    await pacer.acquire()
    expect(internal.next).toBe(5001)
  })

  it("'auto' does not space requests", async () => {
    const pacer = new Pacer('auto', () => 0)
    await pacer.acquire()
    await pacer.acquire()
    expect((pacer as unknown as { next: number }).next).toBe(0)
  })

  it('refuses a rate that is not positive', () => {
    expect(() => new Pacer(0)).toThrow(RangeError)
    expect(() => new Pacer(-1)).toThrow(RangeError)
  })
})
