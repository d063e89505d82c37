import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { strictEvent } from '../../src/conformance/arbitraries.js'
import { serializeEvent } from '../../src/normalize/index.js'

/** The same members in another order, at every level that has a fixed order. */
function shuffled(value: unknown, rank: (name: string) => number): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const entries = Object.entries(value).sort(([a], [b]) => rank(a) - rank(b))
  const out: Record<string, unknown> = {}
  for (const [name, v] of entries) {
    Object.defineProperty(out, name, { value: name === 'header' ? v : shuffled(v, rank), enumerable: true, writable: true, configurable: true })
  }
  return out
}

describe('serializeEvent', () => {
  it('writes canonical member order whatever order the object has (unknown members last)', () => {
    fc.assert(
      fc.property(strictEvent(), fc.func(fc.integer()), fc.boolean(), (event, rank, extra) => {
        const doc = extra ? { ...event, zz_extra: 1 } : event
        const canonical = serializeEvent(doc)
        expect(serializeEvent(shuffled(doc, rank) as typeof event)).toBe(canonical)
        if (extra) expect(canonical.endsWith(',"zz_extra":1}')).toBe(true)
      }),
      { numRuns: 200 },
    )
  })
})
